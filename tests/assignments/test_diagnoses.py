"""Do the diagnoses name the right misconception, and only it?

autograder/<id>/diagnoses.py declares known mistakes (engine/driving/diagnose.py).
Graded over the corpus (tests/assignments/corpus/<id>): each buggy variant that
makes a diagnosed mistake (MADE below) gets that diagnosis, and only it, on at
least one failing test; no other variant (correct ones, mistakes not diagnosed)
ever gets one; a diagnosis never changes a score or a test's output (the
snapshots hold those); the mistakes' code never reaches a worker.

Variants taken from public code (REAL) are labelled with the declared mistakes
they really make, read from their code before any was graded; they are measured,
not required to be named. Those marked `# split: measure` are never used to write
or tune a diagnosis: coverage and precision are printed for both parts (`-k share -s`).
"""
from __future__ import annotations

import importlib
import inspect

import numpy as np
import pytest
import torch

from autograder import checks, protocol
from autograder.engine import assignment as assignment_mod
from autograder.engine.driving import diagnose, evidence
from autograder.build.stand_ins import KINDS as STAND_IN_KINDS
from autograder.engine.driving.student import RemoteObject
from autograder.engine import results
from autograder.report import feedback
from tests.assignments import corpus_tools

MADE = {  # assignment -> {buggy variant: the mistake function it makes, or the several}
    "hw1_attention": {
        "causal_mask_blocks_diagonal": "mask_hides_diagonal",
        "causal_mask_boolean": "mask_boolean",
        "causal_mask_large_negative": "mask_large_negative",
        "causal_mask_lower_triangle": "mask_hides_past",
        "causal_mask_no_validation": "mask_unchecked",
        "causal_mask_asserted": "mask_asserted",
        "causal_mask_table_capped": "mask_from_table",
        "sdpa_divides_by_dk": "sdpa_scaled_otherwise",
        "sdpa_multiplied_by_sqrt_dk": "sdpa_scaled_otherwise",
        "sdpa_mask_read_as_keep": "sdpa_mask_read_as_keep",
        "sdpa_mask_after_softmax": "sdpa_mask_after_softmax",
        "sdpa_mask_multiplied": "sdpa_mask_multiplied",
        "sdpa_mask_sliced": "sdpa_mask_sliced",
        "sdpa_naive_softmax": "sdpa_naive_softmax",
        "sdpa_needs_mask": "sdpa_needs_mask",
        "sdpa_no_scaling": "sdpa_unscaled",
        "sdpa_unscaled_weights_times_mask": "sdpa_unscaled",  # the tests without a mask fail
        "sdpa_returns_out_only": "sdpa_out_only",
        "sdpa_softmax_over_queries": "sdpa_over_queries",
        "tsa_always_causal": "tsa_always_causal",
        "tsa_heads_interleaved": "tsa_heads_interleaved",
        "tsa_no_divisibility_check": "tsa_unchecked",
        "tsa_divisibility_asserted": "tsa_asserted",
        "tsa_qkv_order_swapped": "tsa_kqv",
        "tsa_qkv_with_bias": "tsa_qkv_bias",
        "tsa_scaled_by_model_width": "tsa_by_model_width",
    },
    "hw2_positions_params": {
        "pe_sin_cos_swapped": "pe_swapped",
        "pe_exponent_i_over_d": "pe_exponent_i_over_d",
        "pe_exponent_per_column": "pe_exponent_per_column",
        "pe_positions_from_one": "pe_from_one",
        "pe_halves_layout": "pe_halves",
        "pe_float32_numpy": "pe_float32",
        "pe_returns_tensor": "pe_tensor",
        "pe_rejects_zero_positions": "pe_rejects_zero",
        "pe_float32_torch": "pe_float32_torch",
        # unchecked: the odd-d test names d, the non-int one the types (both are true)
        "pe_no_validation": ("pe_d_unchecked", "pe_types_unchecked"),
        "pe_asserted": "pe_asserted",
        "pe_value_checks_only": "pe_types_unchecked",
        "enc_ffn_one_bias": "enc_one_ffn_bias",
        "enc_no_biases": "enc_no_biases",
        "enc_no_biases_decoder_reuses": "enc_no_biases",
        "enc_no_norms": "enc_no_norms",
        "enc_no_output_projection": "enc_no_output_projection",
        "enc_norm_scale_only": "enc_norm_scale_only",
        "enc_default_dff_2048": "enc_default_2048",
        "enc_returns_float": "enc_float",
        "enc_seed_notes_8d2": "enc_8d2",
        "enc_twelve_d_squared": "enc_12d2",
        "dec_cross_attention_kv_only": "dec_cross_kv_only",
        "dec_cross_attention_no_bias": "dec_cross_no_bias",
        "dec_default_dff_2048": "dec_default_2048",
        "dec_no_cross_attention": "dec_no_cross",
        "dec_sixteen_d_squared": "dec_16d2",
        "dec_two_norms": "dec_two_norms",
        "count_always_trainable": "count_always_trainable",
        "count_ignores_trainable_only": "count_ignores_trainable_only",
        "count_modules_tied_twice": "count_tied_twice",
        "count_remove_duplicate_false": "count_tied_twice",
        "count_returns_tensor": "count_tensor",
        "count_state_dict": ("count_tied_twice", "count_with_buffers"),  # makes both
        "count_tensors_not_scalars": "count_tensors",
        "count_weights_only": "count_weights_only",
        "count_with_buffers": "count_with_buffers",
    },
    "hw3_bert_pretraining": {
        "mlm_ignored_as_class_zero": "mlm_class_zero",
        "mlm_log_of_softmax": "mlm_log_of_softmax",
        "mlm_logits_sum_when_nothing_selected": "mlm_sum_when_nothing",
        "mlm_mean_over_all_positions": "mlm_mean_over_all",
        "mlm_nan_when_nothing_selected": "mlm_nan_when_nothing",
        "mlm_not_flattened": "mlm_not_flattened",
        "mlm_sum_not_mean": "mlm_sum",
        "nsp_first_sep_in_segment_b": "nsp_first_sep_in_b",
        "nsp_no_final_sep": "nsp_no_final_sep",
        "nsp_segments_all_zero": "nsp_one_segment",
        "nsp_sentences_swapped": "nsp_swapped",
        "mt_ignore_label_minus_one": "mt_label_minus_one",
        "mt_labels_hold_corrupted_ids": "mt_labels_corrupted",
        "mt_labels_only_where_masked": "mt_labels_only_masked",
        "mt_selects_special_tokens": "mt_selects_specials",
        "mt_special_ids_hardcoded": "mt_specials_are_first_ids",
        "mt_random_can_be_special": "mt_random_special",
        "mt_hf_numpy_mask_tokens": "mt_random_special",
        "mt_bert_create_masked_lm_predictions": "mt_random_special",
        "mt_random_assumes_leading_specials": "mt_random_special",
        "mt_kept_tokens_unlabelled": "mt_kept_unlabelled",
        "mt_no_unchanged_branch": "mt_never_kept",
        "mt_elif_never_random": "mt_never_random",
        "mt_hardcoded_probabilities": "mt_fixed_probabilities",
        "mt_ignores_split_probabilities": "mt_fixed_split",
        "mt_no_selection_step": "mt_selects_all",
        "mt_second_draw_for_random": "mt_second_draw",
        "mt_fixed_count_per_row": "mt_fixed_per_row",
        "mt_random_off_by_one": "mt_last_id_never_drawn",
        "mt_copies_rng": "mt_rng_copied",
    },
    "hw4_bert_finetuning": {
        "one_epoch_short": "tc_one_epoch_short",
        "zero_epochs_take_a_step": "tc_zero_epochs_step",
        "returns_loss_tensors": "tc_loss_tensors",
        "hard_coded_lr": "tc_lr_ignored",
        "epochs_ignored": "tc_epochs_ignored",
        "no_zero_grad": "tc_no_zero_grad",
        "sgd": "tc_sgd",
        "adam_each_epoch": "tc_fresh_optimizer",
        "loss_after_step": "tc_loss_after_step",
        "causal_mask": "bert_causal",
        "dropout_in_feed_forward": "bert_dropout",
        "feed_forward_2h": "bert_ff_2h",
        "hard_coded_heads": "bert_four_heads",
        "head_built_first": "bert_head_first",
        "ignores_n_layers": "bert_two_layers",
        "last_token_pooling": "bert_last_token",
        "layers_in_plain_list": "bert_plain_list",
        "mean_pooling": "bert_mean_pooling",
        "no_attention_residual": "bert_no_attn_residual",
        "no_position_embeddings": "bert_no_positions",
        "no_residuals": "bert_no_residuals",
        "post_norm": "bert_post_norm",
        "relu_feed_forward": "bert_relu",
        "scaled_token_embeddings": "bert_scaled_tokens",
        "shared_layer": "bert_shared_layer",
    },
    "hw5_eeg_bert": {
        "patchify_keeps_dtype": "patchify_keeps_dtype",
        "patchify_plain_reshape": "patchify_plain_reshape",
        "patchify_sample_major": "patchify_sample_major",
        "patchify_truncates": "patchify_truncates",
        "patchify_asserted": "patchify_asserted",
        "patchify_returns_generator": "patchify_generator",
        "layer_norm_bert_default_eps": "ln_bert_eps",
        "layer_norm_eps_outside_sqrt": "ln_eps_outside",
        "layer_norm_no_eps": "ln_no_eps",
        "layer_norm_over_columns": "ln_over_columns",
        "layer_norm_sample_variance": "ln_sample_variance",
        "mask_added_not_replaced": "mask_added",
        "mask_positions_shifted_for_cls": "mask_shifted_for_cls",
        "mask_token_id_in_rows": "mask_token_id",
        "attention_causal": "attn_causal",
        "attention_heads_interleaved": "attn_interleaved",
        "attention_naive_softmax": "attn_naive_softmax",
        "attention_scaled_by_model_width": "attn_by_model_width",
        "attention_softmax_over_queries": "attn_over_queries",
        "attention_without_output_projection": "attn_no_output_projection",
        "loss_all_rows": "loss_all_rows",
        "loss_empty_gives_nan": "loss_empty_nan",
        "loss_asserted": "loss_asserted",
        "loss_sequence_positions": "loss_shifted_for_cls",
        "loss_sum_of_squares": "loss_sum_of_squares",
        "cls_branches_miss_zero": "cls_misses_zero",
        "cls_exp_ratio": "cls_exp_ratio",
        "cls_ignores_bias": "cls_no_bias",
        "cls_math_exp_overflow": "cls_overflows",
        "cls_no_sigmoid": "cls_no_sigmoid",
    },
    "hw6_encoder_decoder": {
        "tf_eos_in_decoder_input": "tf_eos_in_input",
        "tf_labels_keep_sos": "tf_labels_keep_sos",
        "tf_no_shift": "tf_no_shift",
        "tf_pair_swapped": "tf_swapped",
        "ca_causal_mask": "ca_causal",
        "ca_heads_interleaved": "ca_interleaved",
        "ca_keys_from_decoder": "ca_keys_from_decoder",
        "ca_naive_softmax": "ca_naive_softmax",
        "ca_no_output_projection": "ca_no_output_projection",
        "ca_queries_from_encoder": "ca_roles_swapped",
        "ca_scaled_by_model_width": "ca_by_model_width",
        "ce_labels_shifted_again": "ce_shifted_again",
        "ce_missing_minus_sign": "ce_no_minus",
        "ce_naive_softmax": "ce_naive_softmax",
        "ce_softmax_over_positions": "ce_over_positions",
        "ce_sum_over_positions": "ce_sum",
        "sn_no_validation": "sn_unchecked",
        "sn_top_k_python_int_only": "sn_numpy_top_k_unchecked",
        "sn_rejects_int_temperature": "sn_int_temperature_raises",
        "sn_top_k_rejects_numpy_int": "sn_numpy_top_k_raises",
        "sn_multiplies_by_temperature": "sn_multiplies_by_temperature",
        "sn_temperature_on_probabilities": "sn_temperature_ignored",
        "sn_ignores_top_k": "sn_ignores_top_k",
        "sn_top_k_keeps_one_more": "sn_top_k_one_more",
        "sn_top_k_slice_one_short": "sn_top_k_miscounted",
        "sn_naive_softmax": "sn_overflows",
        "sn_top_k_beyond_vocabulary_crashes": "sn_top_k_beyond_vocabulary_raises",
        "sn_global_rng": "sn_not_only_rng",
        "xavier_global_rng": "xavier_not_only_rng",
        "xavier_transposed": "xavier_transposed",
        "xavier_u01_like_the_old_notebook": "xavier_u01",
        "xavier_fan_in_only": "xavier_fan_in_only",
        "xavier_glorot_normal": "xavier_normal",
        "xavier_half_width": "xavier_narrow",
        "xavier_one_row_repeated": "xavier_one_row",
        "gd_calls_step_twice": "gd_calls_step_twice",
        "gd_drops_eos": "gd_drops_eos",
        "gd_feeds_last_token_only": "gd_last_token_only",
        "gd_highest_id_on_ties": "gd_highest_on_ties",
        "gd_max_len_counts_sos": "gd_max_len_counts_sos",
        "gd_returns_without_sos": "gd_without_sos",
        "gd_stops_when_sos_is_eos": "gd_stops_on_sos_eos",
    },
    "exam_midterm": {  # identity_someone_else is no misconception: never diagnosed
        "chance_level_whole_vocabulary": "chance_whole_vocabulary",
        "cross_attention_shape_source_first": "shape_source_first",
        "encoder_params_12_d_squared": "params_12_d_squared",
        "mask_fraction_specials_selected": "fraction_specials_selected",
        "key_padding_mask_boolean": "mask_boolean",
        "key_padding_mask_fixed_table": "mask_from_table",
        "key_padding_mask_python_int_only": "mask_python_int_only",
        "perplexity_log_of_softmax": "perplexity_log_of_softmax",
        "perplexity_no_float_cast": "perplexity_no_float_cast",
        "perplexity_no_shift": "perplexity_no_shift",
    },
}

AMBIGUOUS = {  # assignment -> {buggy variant: its mistake, declared but never named}
    # Every logits vector its failing tests draw from has its largest logit at id 0: a
    # greedy sampler's answers there are those of a stub that always returns 0.
    "hw6_encoder_decoder": {"sn_always_argmax": "sn_always_argmax"},
}

REAL = {  # assignment -> {variant taken from public code: the declared mistakes it makes}
    # Labelled from the code alone, before grading; () when none of its mistakes has a
    # diagnosis. A measuring part's label is never changed to fit what feedback says.
    "hw1_attention": {
        "causal_mask_issue_29546_transpose": ("mask_unchecked",),
        "causal_mask_subsequent_transposed_common_utils": ("mask_unchecked",),
        # True where allowed: not mask_boolean's "True where hidden"
        "causal_mask_bool_keep_transposed": ("mask_unchecked",),
        "causal_mask_annotated_subsequent": ("mask_unchecked",),
        # the additive mask read as a keep-mask (masked_fill(mask == 0, ...)): labelled ()
        # until sdpa_mask_read_as_keep was declared, which was written knowing these five
        # measured variants were its misses (the closing note counts them apart)
        "sdpa_annotated_masked_fill": ("sdpa_mask_read_as_keep",),
        "sdpa_module_masked_fill_keep": ("sdpa_mask_read_as_keep",),
        "sdpa_masked_fill_minus_inf_keep": ("sdpa_mask_read_as_keep",),
        "causal_mask_attentif_where_unchecked": ("mask_unchecked",),
        # -1e9 above the diagonal, nothing checked
        "causal_mask_numpy_triu_minus_1e9": ("mask_large_negative", "mask_unchecked"),
        # True where allowed: not mask_boolean's "True where hidden"
        "causal_mask_int_triu_keep_2d": ("mask_unchecked",),
        "causal_mask_informer_triangular": ("mask_boolean", "mask_unchecked"),
        # the additive mask read as a keep-mask, -1e9 where it is 0 (see above)
        "sdpa_hkproj_masked_fill_keep": ("sdpa_mask_read_as_keep",),
        "sdpa_meme2515_masked_fill_keep": ("sdpa_mask_read_as_keep",),
        # a causal mask of its own from a fixed 1024-wide table, whatever mask says; a biased
        # qkv; an assert (AssertionError) where the contract wants ValueError
        "tsa_tllm_causal_block_buffer": ("tsa_always_causal", "tsa_qkv_bias", "tsa_unchecked"),
        # correct but for the assert (AssertionError, not ValueError): tsa_unchecked, the
        # nearest declared mistake, until tsa_asserted was declared (written from this one)
        "tsa_timm_attention_assert": ("tsa_asserted",),
        # divides by sqrt(64) whatever d_k; also never applies the mask (no diagnosis)
        "sdpa_graykode_fixed_dk_mask_unused": ("sdpa_scaled_otherwise",),
        # adds mask * -1e9, reading the additive mask as 1 where hidden: -inf becomes +inf
        # (no diagnosis)
        "sdpa_tf_mask_times_minus_1e9": (),
        # batch F (labelled before grading):
        "causal_mask_vit_captioning_masked_fill": ("mask_unchecked",),
        # masked_fill(mask == 0, 1e-15): the allowed keys get a score of ~0, the hidden ones keep
        # theirs; also torch.bmm, so 3-D inputs only (no diagnosis)
        "sdpa_psrahul_bmm_keep_fill": ("sdpa_mask_read_as_keep",),
        "sdpa_cloudclub_keep_mask_out_only": ("sdpa_mask_read_as_keep", "sdpa_out_only"),
        # an assert (AssertionError: labelled tsa_unchecked, the nearest declared mistake then,
        # until tsa_asserted was declared from timm's); qkv(x) read per head as [q_i k_i v_i]
        # blocks, and the mask read as a keep-mask (no diagnosis for either)
        "tsa_khurram_qkv_grouped_per_head": ("tsa_qkv_bias", "tsa_asserted"),
        # no divisibility check at all; also the mask is never read (no diagnosis)
        "tsa_dhamu_vit_mha_qkv_bias": ("tsa_qkv_bias", "tsa_unchecked"),
        # batch G3 (labelled before grading):
        # a biased qkv and an assert; also the mask read as a keep-mask (masked_fill(mask == 0,
        # -inf)), with no TinySelfAttn diagnosis for it
        "tsa_md_salih_unbind_qkv_bias": ("tsa_qkv_bias", "tsa_asserted"),
        "tsa_kartik_chunk_qkv_bias": ("tsa_qkv_bias", "tsa_asserted"),
        # scale = dim ** -0.5 with dim the model's width; nothing checks h % heads; the mask is
        # never read (no diagnosis)
        "tsa_thubz09_vit_scale_by_dim": ("tsa_by_model_width", "tsa_unchecked"),
        # h // heads per head and no check (10, 3 builds a 27-wide qkv); also out has no bias and
        # the scores are divided by 1 / sqrt(d_k), i.e. multiplied by sqrt(d_k), and the mask is
        # never read (no diagnosis for those)
        "tsa_tiny_vit_divides_by_scale": ("tsa_unchecked",),
        "causal_mask_satwik_translator_transposed": ("mask_unchecked",),
        # q @ k.T unscaled, exp(s) / sum exp(s); the mask is never read and batched inputs fail
        # (k.T reverses every axis) (no diagnosis for those)
        "sdpa_geneww_script_unscaled_naive": ("sdpa_unscaled", "sdpa_naive_softmax"),
        # the mask is never read (no diagnosis)
        "sdpa_chandrashekhar_tinaya_mask_unread": (),
        # the additive mask read as a keep-mask, -1e9 where it is 0 (in place, on the scores)
        "sdpa_naity_protein_masked_fill_keep": ("sdpa_mask_read_as_keep",),
        # batch blind-H2 (labelled before grading):
        # True where allowed: not mask_boolean's "True where hidden"
        "causal_mask_karai_cast_bool_keep": ("mask_unchecked",),
        "sdpa_karai_cast_masked_fill_keep": ("sdpa_mask_read_as_keep",),
        # no divisibility check; also the mask is never read and dropout (0.1 on the weights, 0.2
        # on the output) stays on in training mode (no diagnosis)
        "tsa_alimanjotho_pose_mhsa_mask_unread": ("tsa_unchecked",),
        # a biased qkv, no divisibility check; also any mask given is replaced by a causal one of
        # its own (its values never read), none given stays bidirectional (no diagnosis)
        "tsa_hkproj_sd_in_proj_bias": ("tsa_qkv_bias", "tsa_unchecked"),
        # a biased qkv and an assert; also the mask read as a keep-mask (masked_fill(mask == 0,
        # -1e9)), with no TinySelfAttn diagnosis for it
        "tsa_karai_cast_masked_mha_keep_mask": ("tsa_qkv_bias", "tsa_asserted"),
        "causal_mask_deepvac_full_triu_unchecked": ("mask_unchecked",),
    },
    "hw2_positions_params": {
        "pe_first_row_left_zero": ("pe_d_unchecked", "pe_types_unchecked"),
        "pe_tf_tutorial_get_angles": ("pe_d_unchecked", "pe_types_unchecked"),
        "pe_sines_then_cosines_float32": ("pe_halves", "pe_float32", "pe_d_unchecked",
                                          "pe_types_unchecked"),
        "count_requires_grad_always": ("count_always_trainable",),
        "count_requires_grad_happycode": ("count_always_trainable",),
        "count_all_naslib": ("count_ignores_trainable_only",),
        "pe_holberton_loops_unchecked": ("pe_d_unchecked", "pe_types_unchecked"),
        "pe_numpy_div_term_unchecked": ("pe_d_unchecked", "pe_types_unchecked"),
        # also a NumPy integer, not an int (no diagnosis)
        "count_np_prod_requires_grad": ("count_always_trainable",),
        "count_sdftospline_requires_grad": ("count_always_trainable",),
        # also row 0 left all zeros (cos 0 = 1 missing); n_pos = 0 raises IndexError
        "pe_nituchao_per_column_exponent": ("pe_exponent_per_column", "pe_float32",
                                            "pe_rejects_zero", "pe_d_unchecked",
                                            "pe_types_unchecked"),
        # 4 d^2 + 2 d d_ff: 12 d^2 at d_ff = 4d, neither biases nor LayerNorms
        "enc_param_calculator_weights_only": ("enc_no_biases", "enc_no_norms", "enc_12d2"),
        # 6 d^2 + 2 d d_ff: cross-attention as two projections; also no biases and no
        # LayerNorms anywhere (no decoder diagnosis for those)
        "dec_param_calculator_six_d2": ("dec_cross_kv_only", "dec_cross_no_bias"),
        # batch F (labelled before grading):
        "pe_nlp_techniques_halves_float_tensor": ("pe_halves", "pe_float32", "pe_d_unchecked",
                                                  "pe_types_unchecked"),
        # n_pos = 0 gives an empty tensor that [:, 0::2] cannot index (IndexError)
        "pe_dvgt_torch_tensor_table": ("pe_float32", "pe_rejects_zero", "pe_d_unchecked",
                                       "pe_types_unchecked"),
        # only the Q, K and V biases are missing (3d): not enc_no_biases' "the biases are left out"
        "enc_badou_bert_qkv_no_bias": (),
        # 3 * (h / 12) * h is a float; with the two 2(d^2 + d) beside it the attention holds
        # 3 d^2 too many (no diagnosis)
        "enc_badou_heads_float_attention": ("enc_float",),
        # trainable_only defaults to True
        "count_chebgate_trainable_by_default": ("count_always_trainable",),
        # batch G3 (labelled before grading):
        # 4 d^2 + 2 d d_ff + 4d: the LayerNorms but no bias anywhere
        "enc_wangyw_lecture_weights_and_norms": ("enc_no_biases",),
        # the encoder's no-bias count plus 4 d^2 and 4d more: cross-attention without biases (and
        # no bias elsewhere), four LayerNorms' worth of 8d where three hold 6d (no diagnosis for
        # the extra norm)
        "dec_wangyw_lecture_no_biases_four_norms": ("dec_cross_no_bias",),
        # 4 d^2 + 2 d d_ff: 12 d^2 at d_ff = 4d, neither biases nor LayerNorms
        "enc_minillm_attn_ffn_weights": ("enc_no_biases", "enc_no_norms", "enc_12d2"),
        # 12 d^2 + 13 d whatever d_ff: right for d_ff = None only (no diagnosis for an ignored d_ff)
        "enc_wangyw_lecture_twelve_h2_thirteen_h": (),
        "count_tddl_requires_grad": ("count_always_trainable",),
        "count_qlora_trainable_of_named": ("count_always_trainable",),
        # torch float32 table converted at the end; an odd d a RuntimeError, d = 0 a
        # ZeroDivisionError, a float n_pos a TypeError
        "pe_ustc_readme_torch_float32": ("pe_float32_torch", "pe_d_unchecked", "pe_types_unchecked"),
        "pe_chess_transformer_torch_table": ("pe_float32_torch", "pe_d_unchecked",
                                             "pe_types_unchecked"),
        # batch blind-H2 (labelled before grading):
        # 4 d^2 + 2 d d_ff + d_ff + d: no LayerNorm, and the attention's four biases left out while
        # both feed-forward biases are kept (not enc_no_biases' "the biases are left out")
        "enc_punith_notes_attention_no_bias": ("enc_no_norms",),
        # 8 d^2 + 2 d d_ff + d_ff + d: cross-attention without biases; also self-attention without
        # biases and no LayerNorm at all (no decoder diagnosis for those)
        "dec_punith_notes_attention_no_bias": ("dec_cross_no_bias",),
        # MHA with biases and two LayerNorms, 4 d^2 + 8d: the feed-forward network is left out (no
        # diagnosis)
        "enc_jimmy_shen_blog_mha_and_norms": (),
        # two MHA with biases and three LayerNorms, 8 d^2 + 14d: the feed-forward network is left
        # out (no diagnosis)
        "dec_jimmy_shen_blog_mha_and_norms": (),
        # torch float32 table converted at the end; an odd d a RuntimeError, d = 0 an empty table, a
        # float n_pos a TypeError; also only 100 rows whatever n_pos (no diagnosis)
        "pe_karai_cast_module_buffer_capped": ("pe_float32_torch", "pe_d_unchecked",
                                               "pe_types_unchecked"),
        # the state dict's tensors: buffers counted, a tied weight under each of its names, and
        # trainable_only never read
        "count_vad_state_dict_nelement": ("count_with_buffers", "count_tied_twice",
                                          "count_ignores_trainable_only"),
        "count_malfusion_named_parameters_all": ("count_ignores_trainable_only",),
    },
    "hw3_bert_pretraining": {
        # batch E: an int(replace_prob) test (0 for 0.1) skips the random branch, which would draw
        # from the whole vocabulary; 80% [MASK] and 0.5 written in; also corrupts the caller's
        # array in place (no diagnosis)
        "mt_electra_int_replace_prob": ("mt_never_random", "mt_fixed_split", "mt_random_special"),
        # int(0.15 * n) positions per row (choice without replacement), specials among them, -1
        # where nothing is selected, 80/10/10 written in, random ids from the whole vocabulary
        "mt_yacinemebarki_fixed_count_minus_one": ("mt_label_minus_one", "mt_fixed_per_row",
                                                   "mt_fixed_probabilities", "mt_selects_specials",
                                                   "mt_random_special"),
        # Keras's ignored label 0 (no diagnosis) and a mean over every position
        "mlm_keras_mask_label_zero": ("mlm_mean_over_all",),
        # a mean per sequence (no diagnosis), NaN where nothing is selected; Keras's ignored
        # label 0, so the -100 positions count, as in mlm_keras_mask_label_zero (seen since
        # the tests call it at the lesson's rank: its sums over dim 1 raised at (N, V))
        "mlm_keras_mean_per_sequence": ("mlm_nan_when_nothing", "mlm_mean_over_all"),
        "mlm_hf_bert_for_masked_lm": ("mlm_nan_when_nothing",),
        # also hard-coded 0.8/0.5 for [MASK] and random (the fixed split)
        "mt_hf_run_lm_finetuning_minus_one": ("mt_label_minus_one", "mt_random_special",
                                              "mt_fixed_split"),
        # also label 0, not -100, where nothing is selected (no diagnosis)
        "mt_bert_pytorch_random_word": ("mt_fixed_probabilities", "mt_selects_specials",
                                        "mt_random_special"),
        # random ids from the ids after the first len(special_ids)
        "mt_patbert_random_mask_loop": ("mt_random_special", "mt_fixed_split"),
        # also independent draws for random and unchanged, so the [MASK] share is
        # (1 - random_prob) * (mask_prob + random_prob) (no diagnosis)
        "mt_labml_independent_draws": ("mt_random_special",),
        # its random branch is a subset of the [MASK] one, so it never happens
        "mt_patbert_random_mask_arr": ("mt_never_random", "mt_fixed_split"),
        "mlm_forgefold_masked_positions": ("mlm_nan_when_nothing",),
        # segments 1 and 2, not 0 and 1: no diagnosis
        "nsp_bert_pytorch_segments_one_two": (),
        # 15%, 80% and a second draw against 0.5 written in (10% random at the defaults, so not
        # labelled mt_second_draw), n_pred targets per row, every position a candidate, random
        # ids from the whole vocabulary
        "mt_graykode_make_batch_all_positions": ("mt_fixed_probabilities", "mt_fixed_per_row",
                                                 "mt_selects_specials", "mt_random_special"),
        "mlm_tite_cross_entropy_mean": ("mlm_nan_when_nothing",),
        # every target becomes [MASK] (a bernoulli of 1.0); also corrupts the caller's array in
        # place (no diagnosis)
        "mt_kd_adv_tools_always_mask": ("mt_never_random", "mt_never_kept"),
        # batch G2 (labelled before grading):
        # only when tokens_b is empty (`if token_ids_1:`): then the closing [SEP] is missing and
        # segment_ids is one longer than input_ids
        "nsp_hf_fast_tokenizer_empty_b": ("nsp_no_final_sep",),
        "mlm_fairseq_masked_lm_sum": ("mlm_sum",),
        # also (T, V) logits break its transpose(1, 2) (no diagnosis)
        "mlm_seekdeeper_nll_transposed": ("mlm_nan_when_nothing",),
        # also -log of a softmax clipped to [1e-7, 1 - 1e-7], capped near 16.1 (no diagnosis)
        "mlm_keras_io_sum_of_clipped_softmax": ("mlm_sum",),
        # d2l's default-mean CrossEntropyLoss runs over every row's padded entries too (position 0,
        # label 0, weight 0), so a row with fewer targets adds class-0 predictions to the mean
        "mlm_d2l_padded_pred_positions": ("mlm_class_zero",),
        # ids <= 2 taken as the specials, random ids from [3, mask_id), 15% / 90% / 1/9 written in
        # (80/10/10 overall), -1 where nothing is selected
        "mt_keras_io_get_masked_input": ("mt_label_minus_one", "mt_fixed_probabilities",
                                         "mt_specials_are_first_ids", "mt_random_special"),
        # int(select_prob * n + u) targets per row, every position a candidate, random ids from
        # the ids after the first len(special_ids); also asserts 0 < select_prob < 1 (no diagnosis)
        "mt_fairseq_mask_tokens_dataset": ("mt_fixed_per_row", "mt_selects_specials",
                                           "mt_random_special"),
        # also corrupts the caller's array in place (no diagnosis)
        "mt_seekdeeper_mask_sentence": ("mt_fixed_probabilities", "mt_selects_specials",
                                        "mt_random_special"),
        # every target becomes [MASK]; only mask_id itself is never selected
        "mt_retention_create_mlm_data": ("mt_never_random", "mt_never_kept",
                                         "mt_selects_specials"),
        # 0.8 and 0.5 written in, random ids from the whole vocabulary; also corrupts the caller's
        # array in place (no diagnosis)
        "mt_electra_data_utils_in_place": ("mt_fixed_split", "mt_random_special"),
        "mt_immune_collator_all_mask": ("mt_never_random", "mt_never_kept"),
        # batch blind-H2 (labelled before grading):
        # only when tokens_b is empty (`if s2:`): then the closing [SEP] is missing
        "nsp_jiant_boundary_tokens_seg_cumsum": ("nsp_no_final_sep",),
        # max(1, int(select_prob * n)) targets per row (choice without replacement), -1 where
        # nothing is selected, 0.8 and 0.9 written in, random ids from the whole vocabulary; also at
        # least one target even with select_prob = 0 (no diagnosis)
        "mt_ryanakml_apply_mlm_sample_minus_one": ("mt_label_minus_one", "mt_fixed_per_row",
                                                   "mt_fixed_split", "mt_random_special"),
        # -log(softmax + 1e-10), mean over the targets, 0 when none: capped near 23 for a target
        # whose probability underflows (no diagnosis; mlm_log_of_softmax's log 0 = -inf never
        # happens)
        "mlm_ryanakml_numpy_loss_eps": (),
    },
    "hw4_bert_finetuning": {
        # batch E: LayerNorm after each residual sum, dropout on both sub-layers' outputs
        "layer_spark_post_norm_dropout": ("bert_post_norm", "bert_dropout"),
        # the same, and a dropout after the GELU; its tanh GELU's cubic term is 0.44715 x^3, not
        # 0.044715 x^3 (no diagnosis)
        "layer_kgec_post_norm_gelu_typo": ("bert_post_norm", "bert_dropout"),
        # the last position read, tokens times sqrt(h), ReLU, a dropout after it (and one on the
        # positions); also fixed sinusoidal positions, a final LayerNorm, layers deep-copied from one
        # (same initial weights) (no diagnosis)
        "model_pshysimon_last_token_scaled": ("bert_last_token", "bert_scaled_tokens", "bert_relu",
                                              "bert_dropout"),
        # nn.TransformerEncoder (post-norm, ReLU, dropout) and the mean over positions; also a
        # 256-wide feed-forward, a biased in_proj, sinusoidal positions indexed by the batch
        # (x.size(1) of a sequence-first x) (no diagnosis)
        "model_rumor_detect_mean_pooling": ("bert_mean_pooling", "bert_post_norm", "bert_relu",
                                            "bert_dropout"),
        # Adam(model.parameters()): its default 1e-3 whatever lr says
        "tc_brain_session_adam_default_lr": ("tc_lr_ignored",),
        # 5 epochs and lr=0.001 written in
        "tc_viwsliu_five_epochs": ("tc_epochs_ignored", "tc_lr_ignored"),
        "tc_yueyili_fixed_lr": ("tc_lr_ignored",),
        "tc_appras_final_losses_tensors": ("tc_loss_tensors",),
        # zero_grad after the step (gradients on the model join the first update): no diagnosis
        "tc_step_by_step_zero_grad_last": (),
        # LayerNorm after each residual sum, ReLU, dropout on both sub-layers' outputs (the
        # feed-forward's included), the sum of the embeddings times sqrt(h); also dropout on
        # the embeddings and on [CLS] (no diagnosis)
        "model_mrinalxdev_post_norm_relu": ("bert_post_norm", "bert_relu", "bert_scaled_tokens",
                                            "bert_dropout"),
        # also a LayerNorm on the embeddings and a dropout before the head (no diagnosis)
        "model_lydia_encoder_ff_2h": ("bert_ff_2h",),
        # a fresh, unregistered LayerNorm after the attention's residual sum; the feed-forward
        # has no residual at all, the embeddings a LayerNorm and dropout, the head a tanh
        # pooler before it (no diagnosis)
        "model_graykode_post_norm_pooler": ("bert_post_norm",),
        # also its modules created as attn, ln1, ff, ln2 (no diagnosis)
        "layer_tecxcto_quick_block": ("bert_post_norm", "bert_relu"),
        # a dropout after the GELU and one ending the feed-forward
        "layer_smariful_mlp_dropout": ("bert_dropout",),
        "tc_pytorch_quickstart_sgd": ("tc_sgd",),
        # batch G1 (labelled before grading):
        # LayerNorm after each residual sum, ReLU, dropout 0.2 on both sub-layers' outputs; also the
        # position table created after the layers and a tanh pooler before the head (no diagnosis)
        "model_d2l_omroot_post_norm_relu": ("bert_post_norm", "bert_relu", "bert_dropout"),
        # nn.TransformerEncoderLayer (post-norm, dropout 0.1, GELU); also an embedding LayerNorm and
        # dropout, a token-type row added, xavier init, a tanh pooler (no diagnosis)
        "model_neetmehta_torch_layer_pooler": ("bert_post_norm", "bert_dropout"),
        # its dropout is 0.0 (inactive); also max pooling over positions and log_softmax returned
        # instead of the logits (no diagnosis)
        "model_former_post_norm_max_pool": ("bert_post_norm", "bert_relu"),
        # GPT's causal block, a dropout ending the feed-forward; also ln1 and ln2 created before attn
        "layer_mingpt_block_causal": ("bert_causal", "bert_dropout"),
        # an extra learned cls vector prepended and read at position 0, a final LayerNorm, Dropout(0.)
        # modules inside ff (ff.3, not ff.2): none of them declared
        "model_vit_pytorch_cls_token_final_norm": (),
        # also its own LayerNorm: unbiased std, eps added to the std (no diagnosis)
        "layer_hyunwoongko_post_norm_std": ("bert_post_norm", "bert_relu", "bert_dropout"),
        # also an extra proj Linear after the attention, embedding LayerNorm and dropout, a segment
        # row added, a tanh pooler (no diagnosis)
        "model_pytorchic_bert_proj_pooler": ("bert_post_norm", "bert_dropout"),
        # AdamW(lr=3e-4), 20 epochs, never zero_grad
        "tc_metaregvit_adamw_no_zero_grad": ("tc_no_zero_grad", "tc_epochs_ignored", "tc_lr_ignored"),
        # AdamW(lr=1e-5), 3 epochs
        "tc_zig_lesson_adamw_three_epochs": ("tc_epochs_ignored", "tc_lr_ignored"),
        "tc_simplecnn_fixed_lr": ("tc_lr_ignored",),
        # SGD(lr), 3 epochs
        "tc_proseminar_sgd_three_epochs": ("tc_sgd", "tc_epochs_ignored"),
        # Adam(lr=0.001), 10 epochs
        "tc_asltranslator_ten_epochs": ("tc_epochs_ignored", "tc_lr_ignored"),
        # batch H1 (labelled before grading):
        # LayerNorm after each residual sum, ReLU, dropout 0.5 on both sub-layers' outputs; also fixed
        # sinusoidal positions, layers deep-copied from an extra registered one, a head on all
        # max_len positions flattened (no diagnosis)
        "model_chinese_textcls_flatten_post_norm": ("bert_post_norm", "bert_relu", "bert_dropout"),
        # the feed-forward (h wide, a GELU after each Linear) ends with an active Dropout(0.1); also
        # seven layers and eight heads whatever n_layers and heads say (not the declared two and four),
        # a prepended cls vector, a LayerNorm in the head (no diagnosis)
        "model_omihub_vit_cifar_seven_blocks": ("bert_dropout",),
        # CLIP's causal mask; also the head reads the position of the largest token id, a final
        # LayerNorm, QuickGELU, its own initialisation (no diagnosis)
        "model_clip_text_causal_eot_pooling": ("bert_causal",),
        # GPT's causal block and the last position read; also a final LayerNorm
        "model_rasbt_gpt_classifier_last_token": ("bert_causal", "bert_last_token"),
        # neither sub-layer adds to its input (each is LayerNorm-ed), the feed-forward ends with an
        # active dropout; also one layer whatever n_layers says, a 36-wide feed-forward with the
        # dropout before its GELU, a segment row added, an embedding LayerNorm (no diagnosis)
        "model_coaxsoft_single_encoder_no_residuals": ("bert_no_residuals", "bert_dropout"),
        # the Mlp ends with an active Dropout(0.1); also a prepended cls vector, a final LayerNorm,
        # deep-copied layers, xavier init, eps 1e-6 (no diagnosis)
        "model_jeonsworld_vit_cls_token_dropout": ("bert_dropout",),
        # LayerNorm after each residual sum, the feed-forward ends with an active dropout; also fixed
        # sinusoidal positions, a LayerNorm on [CLS] before the head (no diagnosis)
        "model_mnayyal_post_norm_sinusoidal": ("bert_post_norm", "bert_dropout"),
        # also fixed sinusoidal positions (no diagnosis)
        "model_xingyang_post_norm_relu_sinusoidal": ("bert_post_norm", "bert_relu"),
        # nn.TransformerEncoder (post-norm, GELU, dropout 0.1) with nhead=4 written in, no positions,
        # the mean over positions; also sequence-first, so attention runs across the batch, and a
        # head with 2 outputs whatever n_classes says (no diagnosis)
        "model_derrnux_seq_first_encoder_mean": ("bert_post_norm", "bert_dropout", "bert_four_heads",
                                                 "bert_mean_pooling", "bert_no_positions"),
        # a prepended zero cls vector, a final LayerNorm, a zero-initialised head, xavier ff init,
        # eps 1e-6, layers named encoder_layer_i: none of them declared
        "model_torchvision_vit_zero_head": (),
        # the feed-forward ends with an active Dropout(0.1); also an embedding LayerNorm and
        # Dropout(0.5), a dropout on [CLS] before the head (no diagnosis)
        "model_bastrob_anatomy_embedding_norm_dropout": ("bert_dropout",),
        # LayerNorm after each residual sum, ReLU, an active dropout on the feed-forward's output, the
        # mean over positions; also sinusoidal positions added twice, a final LayerNorm (no diagnosis)
        "model_devesssi_double_positions_mean_pool": ("bert_post_norm", "bert_relu", "bert_dropout",
                                                      "bert_mean_pooling"),
        # the mean over positions; also a prepended cls vector, a LayerNorm in the head, an
        # nn.Sequential model (no diagnosis)
        "model_zuppichini_vit_sequential_mean_head": ("bert_mean_pooling",),
        # AdamW(lr=5e-5, weight_decay=0.1) written in, the loss measured again (in eval mode) after
        # the step, and only every 50th step (no diagnosis for the count)
        "tc_rasbt_train_classifier_simple": ("tc_lr_ignored", "tc_loss_after_step"),
        # Adam(model.parameters()): its default 1e-3; also a NumPy array returned (no diagnosis)
        "tc_mnayyal_numpy_losses_default_adam": ("tc_lr_ignored",),
        # AdamW(lr=2e-4) with a cosine schedule and clipping, 5 epochs
        "tc_xingyang_adamw_cosine_five_epochs": ("tc_epochs_ignored", "tc_lr_ignored"),
        # Adadelta(lr) with StepLR and nll_loss on the logits (not log-probabilities): none declared
        "tc_pytorch_examples_mnist_adadelta_nll": (),
        # Adam(lr, weight_decay=0.1) and fixed mini-batches of 50 (narrow fails below 50 rows): none
        # declared
        "tc_riccardocadei_adam_weight_decay_minibatch": (),
        # AdamW(lr=5e-5) with a linear decay, 3 epochs; zero_grad after the step (no diagnosis)
        "tc_mldovakin_adamw_linear_schedule": ("tc_epochs_ignored", "tc_lr_ignored"),
        # Adam(lr=1e-4), 10 epochs
        "tc_granikd_fixed_lr_ten_epochs": ("tc_epochs_ignored", "tc_lr_ignored"),
        # batch I1 (labelled before grading; split by sha1 of the stem, the first half measured):
        # Adam(lr=0.001) written in
        "tc_marikanappi_adam_fixed_lr": ("tc_lr_ignored",),
        # Adam(lr=0.001), 10 epochs
        "tc_cpsource_call1_ten_epochs": ("tc_epochs_ignored", "tc_lr_ignored"),
        # Adam(lr=0.001), 20 epochs
        "tc_harshkatiyar_twenty_epochs": ("tc_epochs_ignored", "tc_lr_ignored"),
        # Adam(lr=0.001) written in, then StepLR(step_size=5, gamma=0.1): from the sixth epoch on
        # the rate is a tenth of it (no diagnosis for the schedule)
        "tc_rameshkr_steplr_fixed_lr": ("tc_lr_ignored",),
        # SGD(lr=0.01, momentum=0.07), 100 epochs; also `it` is never defined, so every call raises
        # NameError after the first step, and a NumPy array would be returned (no diagnosis)
        "tc_vedang_notes_sgd_momentum": ("tc_sgd", "tc_epochs_ignored", "tc_lr_ignored"),
        # nn.TransformerEncoder (post-norm, ReLU, dropout 0.1) and the mean over positions; also a
        # 512-wide feed-forward, sequence-first (attention across the batch) and sinusoidal
        # positions indexed by the batch (no diagnosis)
        "model_karishmagrana_encoder_mean": ("bert_mean_pooling", "bert_post_norm", "bert_relu",
                                             "bert_dropout"),
        # nn.TransformerEncoder (post-norm, ReLU, dropout 0.1), no positions, the mean over
        # positions; also the logits averaged over the batch, (1, n_classes) (no diagnosis)
        "model_tragt_encoder_batch_mean": ("bert_no_positions", "bert_mean_pooling", "bert_post_norm",
                                           "bert_relu", "bert_dropout"),
        # pre-norm, with an active dropout after the GELU and one ending the feed-forward (ff.3,
        # not ff.2); also ln1 registered before attn (no diagnosis)
        "model_amsdt_pre_norm_mlp_dropout": ("bert_dropout",),
        # LayerNorm after each residual sum, ReLU, an active dropout on the layer's output
        "model_keqingli_gptblock_post_norm": ("bert_post_norm", "bert_relu", "bert_dropout"),
    },
    "hw5_eeg_bert": {
        "layer_norm_eps_hardcoded": (),
        "layer_norm_unbiased_var_fixed_eps": ("ln_sample_variance",),
        # both at once: (x - mean) / (sample std + eps)
        "layer_norm_hkproj_std_plus_eps": ("ln_eps_outside", "ln_sample_variance"),
        "layer_norm_torch_var_unbiased": ("ln_sample_variance",),
        # 1 / (1 + e^z), the sigmoid of -z: no diagnosis
        "cls_sigmoid_exp_sign_flipped": (),
        # an empty mask gives 0 / max(0, 1) = 0.0, neither nan nor ValueError (no diagnosis)
        "loss_pathvision_clamped_count": (),
        "loss_sdfdepth_mean_of_selected": ("loss_empty_nan",),
        "cls_codelab_predict_proba": ("cls_overflows",),
        # batch F (labelled before grading):
        "layer_norm_trading_std_plus_eps": ("ln_eps_outside",),
        "loss_travel_times_masked_mse": ("loss_empty_nan",),
        # Q reshaped straight to (1, heads, T, d_k), then the softmax runs over the heads axis; the
        # output only has d columns when T == heads (no diagnosis)
        "attention_jtappen_reshape_before_split": (),
        # batch G2 (labelled before grading):
        # the leading N % patch_len samples dropped, rows flattened sample by sample
        "patchify_index_future_simple_patch": ("patchify_truncates", "patchify_sample_major",
                                               "patchify_keeps_dtype"),
        # non-int or < 1 patch_len refused with ValueError, but one longer than N with assert and
        # one not dividing N accepted (the trailing samples dropped); rows sample by sample
        "patchify_index_future_unfold": ("patchify_truncates", "patchify_asserted",
                                         "patchify_sample_major", "patchify_keeps_dtype"),
        # writes into z itself and returns it (no diagnosis)
        "mask_fomo25_random_mask_in_place": (),
        "loss_harmony_mae_loss": ("loss_empty_nan",),
        # an empty mask gives 0.0, neither nan nor ValueError (no diagnosis)
        "loss_gfms_zero_when_empty": (),
        "attention_llms4code_gpt4_turbo_raw_exp": ("attn_naive_softmax",),
        "attention_llms4code_codex_no_wo": ("attn_naive_softmax", "attn_no_output_projection"),
        # the softmax subtracts the maximum over every head and row, not each row's: a row far
        # below the global maximum underflows to 0 / 0 (no diagnosis)
        "attention_llms4code_deepseek_global_max": (),
        # NumPy's mean has no `dim` keyword: a TypeError on every call; its eps 1e-05 also
        # written in (no diagnosis)
        "layer_norm_parallelisms_dim_keyword": (),
        # the logit clipped to [-20, 20]: off by up to 2e-9 beyond (no diagnosis)
        "cls_cardio_clip_twenty": (),
        # batch G4 (labelled before grading):
        # the [C, P, L] channel tokens reshaped to (P, C*L): row by row; the samples past the last
        # whole patch dropped (a warning printed), patch_len 0 a ZeroDivisionError; the dtype kept
        "patchify_zwu_ts_channel_tokens": ("patchify_plain_reshape", "patchify_truncates",
                                           "patchify_keeps_dtype"),
        # (C, L) windows flattened channel by channel (right), but N // patch_len of them: a
        # patch_len not dividing N drops samples, 0 a ZeroDivisionError; the dtype kept
        "patchify_identity_recognition_sliding_window": ("patchify_truncates", "patchify_keeps_dtype"),
        # zero rows (mask_vector never read) written into z itself (no diagnosis)
        "mask_aivclab_zeros_in_place": (),
        # (x - mean) / (std + eps)
        "layer_norm_dna2sevord_std_plus_eps": ("ln_eps_outside",),
        # softmax(score, axis=1) on the (heads, T, T) scores: over the queries
        "attention_daniallegue_softmax_axis_one": ("attn_over_queries",),
        # exp(s) / np.sum(exp(s), axis=-1) without keepdims (each column divided by another row's
        # sum), no Wo; one head over the whole width, so heads is ignored and its sqrt(d) is that
        # one head's sqrt(d_k) (no diagnosis for the head split)
        "attention_yvsemlani_single_head": ("attn_naive_softmax", "attn_no_output_projection"),
        # batch blind-H3 (labelled before grading):
        # moved from correct/ after grading: rejects any x that is not 2-D (ValueError), though
        # the stub normalises the last axis of any shape (no declared mistake)
        "layer_norm_mlbites_forward": (),
        # N // patch_len np.split sections: a patch_len of 0 a ZeroDivisionError, a non-int one a
        # TypeError (np.zeros of a float shape); other bad ones np.split's or numpy's ValueError
        "patchify_eeg_emotion_np_split": (),
        # (loss * mask).sum() / mask.sum(): 0 / 0 when nothing is masked
        "loss_stable_ssl_mae_reconstruction": ("loss_empty_nan",),
    },
    "hw6_encoder_decoder": {
        "xavier_torch_out_by_in": ("xavier_transposed", "xavier_not_only_rng"),
        "xavier_torch_global_uniform": ("xavier_not_only_rng",),
        # max_len - 1 steps, and no stop at eos (no diagnosis)
        "gd_annotated_no_eos_stop": ("gd_max_len_counts_sos",),
        "gd_starts_from_one": ("gd_max_len_counts_sos",),
        "gd_hkproj_max_len_counts_sos": ("gd_max_len_counts_sos",),
        "gd_gec_truncates_at_eos": ("gd_drops_eos",),
        # -log(softmax + 1e-5): capped near 11.5 where the softmax underflows (no diagnosis)
        "ce_hm1_log_of_softmax_plus_eps": (),
        "sn_fmengine_exponential_race": ("sn_unchecked", "sn_not_only_rng"),
        # and a bound of 1 / sqrt(fan_in) (no diagnosis)
        "xavier_42_inv_sqrt_fan_in": ("xavier_transposed", "xavier_not_only_rng"),
        # the annotated transformer's loop again: max_len - 1 steps, no stop at eos
        "gd_tofigh_annotated_copy": ("gd_max_len_counts_sos",),
        "xavier_jmcheon_global_uniform": ("xavier_not_only_rng",),
        # 0 or a negative temperature and top_k < 1 accepted, mlx's global generator, and a
        # top_k beyond the vocabulary an argpartition error (kth out of bounds)
        "sample_tiny_llm_mlx_sampler": ("sn_unchecked", "sn_not_only_rng",
                                        "sn_top_k_beyond_vocabulary_raises"),
        "sample_vllm_metal_mlx_sample": ("sn_unchecked", "sn_not_only_rng",
                                         "sn_top_k_beyond_vocabulary_raises"),
        # x[:, y] sums whole columns of the shifted logits, not each row's label (no diagnosis)
        "ce_eecs4750_columns_of_labels": (),
        # batch F (labelled before grading):
        # torch's global generator (NumPy's once translated); a negative temperature is used, a
        # top_k of 0 gives an IndexError
        "sn_nanogpt_generate_multinomial": ("sn_unchecked", "sn_not_only_rng"),
        # also labels read with y.shape, so a list of labels raises (no diagnosis)
        "ce_jeongnna_log_of_softmax": ("ce_naive_softmax",),
        "xavier_graphnn_glorot_init": ("xavier_not_only_rng",),
        # batch G3 (labelled before grading):
        # -log of a (max-shifted) softmax: log 0 where it underflows
        "ce_nguyenbui_log_of_gathered_softmax": ("ce_naive_softmax",),
        # NLLLoss(reduction="sum") of log(softmax)
        "ce_zyt600_nll_sum_of_log_softmax": ("ce_sum", "ce_naive_softmax"),
        # np.max(..., keep_dims=True) raises TypeError on every call; were it fixed: t = 0 becomes
        # 0.1 (a negative t is used), np.random.choice, top_k never read
        "sn_anushka_temp_sampling_keep_dims": ("sn_unchecked", "sn_not_only_rng", "sn_ignores_top_k"),
        # temperature <= 0 means argmax, top_k = 0 an IndexError, np.random.choice
        "sn_sebastian_generate_top_k_then_temperature": ("sn_unchecked", "sn_not_only_rng"),
        # breaks on eos_id before appending it
        "gd_sebastian_generate_breaks_before_eos": ("gd_drops_eos",),
        # normal, std 1 / sqrt(fan_in), np.random (no diagnosis for the std)
        "xavier_da6401_randn_sqrt_one_over_fan_in": ("xavier_normal", "xavier_not_only_rng"),
        # a tril mask over the (n_tgt, n_src) scores, exp without the max, no Wo (the decoder
        # states added back instead); also each head reshaped from the flat (n, d) block rather
        # than its column block (not interleaved columns: no diagnosis)
        "ca_bootcamp_soln_causal_residual": ("ca_causal", "ca_naive_softmax",
                                             "ca_no_output_projection"),
        # batch G3, third round (labelled before grading):
        # the decoder input is the whole [sos] + y + [eos], the labels y + [eos]
        "tf_keras_lstm_seq2seq_target_text": ("tf_eos_in_input",),
        # step given the last id only, the ids returned without sos_id; also max_len + 1 ids
        # before it stops at the length (len > max_len) (no diagnosis for that)
        "gd_keras_decode_sequence_last_token": ("gd_last_token_only", "gd_without_sos"),
        # batch G4 (labelled before grading):
        # one head over the whole width: heads is ignored, its sqrt(d) is that one head's sqrt(d_k)
        # (no diagnosis for the head split)
        "ca_bangbv_single_head": (),
        # K and V reshaped with y's length (an error unless n_src == n_tgt), and the softmax over
        # the queries (axis 1 of (heads, n_tgt, n_src)) (no hw6 diagnosis for either)
        "ca_daniallegue_softmax_axis_one": (),
        # the keys from the decoder states y, only the values from h
        "ca_dna2sevord_keys_from_decoder": ("ca_keys_from_decoder",),
        # np.asarray(None) is not None: the mask branch indexes a 0-d array, an IndexError on every
        # call (no diagnosis)
        "ca_amritanshuv_mask_none": (),
        # the decoder input is [sos] + y + [eos], the labels y + [eos] + [0] (the pad)
        "tf_tokenpositioning_shift_left_pad": ("tf_eos_in_input",),
        # batch blind-H3 (labelled before grading):
        # -log(softmax + 1e-9) of the max-shifted logits, in float32: capped near 20.7 where the
        # softmax underflows, never -inf (no diagnosis, as ce_hm1_log_of_softmax_plus_eps)
        "ce_aiframework_log_softmax_plus_eps": (),
        # zip(Wks, Wqs, Wvs) bound to (Wq, Wk, Wv): the queries are y @ Wk, the keys h @ Wq (the
        # roles of y and h are right; no declared mistake)
        "ca_eliben_cross_attention_list_zip_swapped": (),
        "xavier_akirary_glorot_uniform_shape": ("xavier_not_only_rng",),
        # always max_len steps, never stops at eos_id (no declared mistake)
        "gd_shubhams821_inference_no_eos": (),
        # range(max_len - 1), breaks after appending EOS_IDX
        "gd_southern_cross_testing_max_len_minus_one": ("gd_max_len_counts_sos",),
        # torch's global generator; no check of temperature or top_k (a negative temperature is
        # used, 0 gives nan probabilities); torch.topk raises for a top_k beyond the vocabulary;
        # also the temperature ignored whenever top_k is given (no diagnosis for that)
        "sn_ngram_llm_top_k_sample_torch": ("sn_not_only_rng", "sn_unchecked",
                                            "sn_top_k_beyond_vocabulary_raises"),
    },
    "exam_midterm": {
        # batch E: F.cross_entropy on the scores as given (int8 raises rather than wraps); also
        # ignore_index unused (its default -100), nan and no ValueError when nothing counts (no
        # diagnosis)
        "perplexity_shubham_cross_entropy_loss": ("perplexity_no_float_cast",),
        # torch.take on the flattened log-probabilities: every label indexes row 0's; no float cast;
        # also no ignore_index, no ValueError (no diagnosis)
        "perplexity_shubham_take_flat_index": ("perplexity_no_float_cast",),
        # True at real tokens: not mask_boolean's "True at padding"; no ValueError
        "key_padding_mask_yata0_sequence_mask": (),
        # also as wide as the longest length, n_src unused, and no ValueError (no diagnosis)
        "key_padding_mask_ocrstack_boolean": ("mask_boolean",),
        # a numpy integer n_src fails its assertion
        "key_padding_mask_wenet_make_pad_mask": ("mask_boolean", "mask_python_int_only"),
        # True at real tokens: not mask_boolean's "True at padding"; no ValueError
        "key_padding_mask_fastspeech_keep_mask": (),
        # also the mean of per-position perplexities, and no ignore_index (no diagnosis)
        "perplexity_mean_of_exps_cs336": ("perplexity_no_float_cast",),
        # also -100 labels gathered, and no ValueError when nothing is scored
        "perplexity_eval_rnn_log_of_softmax": ("perplexity_log_of_softmax",
                                               "perplexity_no_float_cast"),
        # True at real tokens: not mask_boolean's "True at padding"; no ValueError
        "key_padding_mask_deepmatcher_sequence_mask": (),
        # the shift subtracted in place in the scores' dtype; also no ignore_index (the -100
        # labels gathered), no ValueError, the caller's array changed (no diagnosis)
        "perplexity_cs336_inplace_shift": ("perplexity_no_float_cast",),
        # batch G1 (labelled before grading):
        # True at padding; also no ValueError (a length of 0 masks the whole row)
        "key_padding_mask_fstas_loop_fill": ("mask_boolean",),
        # True at real tokens, as wide as the longest length: not mask_boolean's "True at padding"
        "key_padding_mask_i6_lengths_true_inside": (),
        # also as wide as the longest length, n_src unused, and no ValueError (no diagnosis)
        "key_padding_mask_fairseq_lengths_to_padding": ("mask_boolean",),
        # also no ValueError
        "key_padding_mask_fastspeech2_ids_ge_lengths": ("mask_boolean",),
        # float64 1.0 at real tokens, 0.0 at padding: a multiplicative mask, not a boolean one; no
        # ValueError (no diagnosis)
        "key_padding_mask_espnet_len2mask_float": (),
        # log of F.softmax; int8 scores make softmax raise; also a RuntimeError (torch.max of nothing),
        # not ValueError, when every position is ignored
        "perplexity_torcheval_softmax_diagonal": ("perplexity_log_of_softmax", "perplexity_no_float_cast"),
        # log2 of softmax + 1e-10 (capped, not -inf, yet the log of the probabilities); int8 scores make
        # softmax raise; also ignore_index only honoured when >= 0, so -100 labels make scatter_ raise
        "perplexity_torchseq_log2_onehot": ("perplexity_log_of_softmax", "perplexity_no_float_cast"),
        # batch blind-H3 (labelled before grading):
        # (3+4)*H*H: weight matrices only (no bias, no LayerNorm), the feed-forward width taken
        # as 4d; also the output projection and the second feed-forward matrix left out (7 d^2)
        "encoder_params_hqyang_calsize": ("params_12_d_squared",),
        # -log(1/vocab_size): uniform over every id, the special ones included
        "chance_level_makemore_part3_uniform": ("chance_whole_vocabulary",),
        # -log(max(1e-10, softmax)): the log of the probabilities (capped, not -inf); also
        # ignore_index unused and no ValueError (no diagnosis)
        "perplexity_memn2n_capped_log": ("perplexity_log_of_softmax",),
        # 1.0 at real tokens, -inf at padding: neither boolean nor sliced from a table; no
        # ValueError (no diagnosis)
        "key_padding_mask_transformerscratch_where_ones": (),
        # mask.type(dtype)'s result discarded: boolean True at real tokens, not mask_boolean's
        # "True at padding"; no ValueError
        "key_padding_mask_sgd_sequence_mask_type_dropped": (),
    },
}


def _diagnoses(assignment_id: str) -> dict[str, diagnose.Diagnosis]:
    """{mistake function's name: its Diagnosis}."""
    loaded = assignment_mod.load(assignment_id)
    return {d.mistake.__name__: d for ds in loaded.diagnoses.values() for d in ds}


def _named(result) -> set[str]:
    """The mistakes a result's feedback names, each as its Diagnosis.text() (a combined
    diagnosis names each of its mistakes on a line)."""
    return {line for t in result.tests for line in t.diagnosis.splitlines()}


def _made(assignment_id: str, stem: str) -> tuple[str, ...]:
    """The mistakes a buggy variant makes (each named on the tests it fails)."""
    made = MADE[assignment_id].get(stem, ())
    return (made,) if isinstance(made, str) else made


def _real(assignment_id: str, path) -> set[str]:
    """The texts of the declared mistakes a variant really makes (none for a correct one)."""
    if path.parent.name != "buggy":
        return set()
    stem, texts = path.stem, _diagnoses(assignment_id)
    ambiguous = AMBIGUOUS.get(assignment_id, {})
    names = set(_made(assignment_id, stem)) | set(REAL.get(assignment_id, {}).get(stem, ()))
    names |= {ambiguous[stem]} if stem in ambiguous else set()
    return {texts[n].text() for n in names}


def _variants():
    for assignment_id in MADE:
        for path in corpus_tools.variants(assignment_id):
            yield pytest.param(assignment_id, path, id=f"{assignment_id}/{path.parent.name}/{path.stem}")


@pytest.mark.parametrize("assignment_id", sorted(MADE))
def test_every_diagnosis_is_made_by_a_variant(assignment_id):
    """Each declared mistake is some corpus variant's (so the corpus measures it), and
    each name in MADE (or AMBIGUOUS) is a declared mistake of that variant's question."""
    declared = {name: d for name, d in _diagnoses(assignment_id).items() if not d.parts}
    ambiguous = AMBIGUOUS.get(assignment_id, {})
    made = {m for stem in MADE[assignment_id] for m in _made(assignment_id, stem)}
    assert made | set(ambiguous.values()) == set(declared)
    stems = {p.stem: p for p in corpus_tools.variants(assignment_id)}
    pairs = [(stem, m) for stem in MADE[assignment_id] for m in _made(assignment_id, stem)]
    for stem, mistake in pairs + list(ambiguous.items()):
        assert corpus_tools.declared(stems[stem]).question == declared[mistake].question, stem
    for stem, mistakes in REAL.get(assignment_id, {}).items():
        assert stem not in MADE[assignment_id] and stem not in ambiguous, stem
        for mistake in mistakes:
            assert corpus_tools.declared(stems[stem]).question == declared[mistake].question, stem


CORPUS_GRADED = pytest.mark.heavy
"""The tests that read the corpus's grading (every variant of every assignment): the
fast tier, -m 'not heavy', skips them; the unit tests of the matching rule below stay."""


@CORPUS_GRADED
@pytest.mark.parametrize("assignment_id, path", list(_variants()))
def test_variant_gets_its_own_diagnosis_only(graded, assignment_id, path):
    """A diagnosed mistake is named, on a failing test, and nothing else ever is."""
    _, result = graded(assignment_id, path)
    named = _named(result)
    assert all(t.status == "failed" for t in result.tests if t.diagnosis)
    if path.stem in REAL.get(assignment_id, {}) and path.parent.name == "buggy":
        # public code: whatever is named is a mistake it makes (it need not be named)
        assert named <= _real(assignment_id, path), corpus_tools.declared(path).split
        return
    made = _made(assignment_id, path.stem) if path.parent.name == "buggy" else ()
    assert named == {_diagnoses(assignment_id)[mistake].text() for mistake in made}


@CORPUS_GRADED
@pytest.mark.parametrize("assignment_id", sorted(MADE))
def test_share_of_buggy_variants_diagnosed(graded, assignment_id, capsys):
    """How often does feedback name the real mistake, and how often is what it names
    right? Per part (tuning, measuring): coverage, the share of buggy variants whose
    diagnoses name a mistake they make; precision, the share of the (variant,
    diagnosis) pairs given that name one (a correct variant makes none). Printed;
    MADE's variants are all named, no correct variant is, and the measuring part
    gets no wrong diagnosis."""
    graded_results = graded.results(assignment_id)
    figures = {}
    for part in (corpus_tools.TUNE, corpus_tools.MEASURE):
        paths = [p for p in graded_results if corpus_tools.declared(p).split == part]
        given = {p: _named(graded_results[p]) for p in paths}
        real = {p: _real(assignment_id, p) for p in paths}
        buggy = [p for p in paths if p.parent.name == "buggy"]
        covered = [p for p in buggy if given[p] & real[p]]
        pairs = [(p, text) for p in paths for text in sorted(given[p])]
        right = [(p, text) for p, text in pairs if text in real[p]]
        figures[part] = (given, pairs, right)
        print(f"{assignment_id} [{part}]: coverage {len(covered)}/{len(buggy)} buggy variants, "
              f"precision {len(right)}/{len(pairs)} diagnoses"
              + "".join(f"\n  wrong: {p.parent.name}/{p.stem}: {text}"
                        for p, text in pairs if (p, text) not in right))
    shown = capsys.readouterr().out
    print(shown, end="")
    assert all(f"{assignment_id} [{part}]: coverage" in shown for part in figures)
    given = {p: g for part in figures.values() for p, g in part[0].items()}
    assert not [p for p, g in given.items() if p.parent.name == "correct" and g]
    named = [p for p, g in given.items() if g and p.parent.name == "buggy"
             and p.stem in MADE[assignment_id]]
    assert len(named) == len(MADE[assignment_id])
    _, pairs, right = figures[corpus_tools.MEASURE]
    assert len(right) == len(pairs)


@CORPUS_GRADED
@pytest.mark.parametrize("assignment_id", sorted(MADE))
def test_stand_ins_are_never_diagnosed(graded, assignment_id):
    """Does a stub nobody wrote ever hear "This looks like"? Every stub at once left
    untouched, raising, handing back its input, answering the reference's answer made
    zeros or ones (autograder.build.stand_ins), or raising ValueError everywhere: graded
    with the corpus, they fail tests of diagnosed questions and are never named."""
    stand_ins = graded.stand_ins(assignment_id)
    assert len(stand_ins) == len(STAND_IN_KINDS) + 1
    diagnosed = set(_diagnoses(assignment_id)[m].question for m in _diagnoses(assignment_id))
    for kind, result in stand_ins.items():  # the check can fail: they fail diagnosed tests
        assert any(t.status == "failed" and t.question in diagnosed for t in result.tests), kind
    named = [f"{kind}: {t.question}::{t.name}: {t.diagnosis}"
             for kind, result in stand_ins.items() for t in result.tests if t.diagnosis]
    assert not named, "\n".join(named)


@CORPUS_GRADED
@pytest.mark.parametrize("assignment_id", sorted(MADE))
def test_mistakes_never_reach_a_worker(graded, assignment_id):
    """The mistakes' code, like the reference, stays in the grader."""
    source = inspect.getsource(importlib.import_module(f"autograder.{assignment_id}.diagnoses"))
    lines = {line.strip() for line in source.splitlines()
             if len(line.strip()) >= 40 and not line.strip().startswith(("#", '"'))}
    assert lines  # the check can fail
    sent = graded.sent(assignment_id)
    found = {line for text in sent for line in lines if line in text}
    assert not found, sorted(found)[:5]


# The matching rule on its own, without a worker.

def _ref(n):
    if n < 1:
        raise ValueError(n)
    return torch.zeros(n)


def _twos(n):  # (a stub answering ones or zeros would be a stand-in: never named)
    return torch.full((n,), 2.0)


def _zeros_unchecked(n):
    return torch.zeros(max(n, 0))


def _record(*pairs):
    calls = diagnose.Calls("f")
    for n, answer in pairs:
        calls.add((n,), {}, answer)
    return calls


TWOS = diagnose.Diagnosis("f", _twos, "twos", "Part 1")
UNCHECKED = diagnose.Diagnosis("f", _zeros_unchecked, "unchecked", "Part 1")


def test_match_needs_every_answer_and_a_difference_from_the_reference():
    assert evidence.diagnose((TWOS, UNCHECKED), _record((2, torch.full((2,), 2.0))), _ref) == \
        "This looks like: twos (see Part 1)"
    # one answer off, or another dtype: no match
    assert evidence.diagnose((TWOS,), _record((2, torch.full((2,), 2.0)), (3, torch.zeros(3))), _ref) == ""
    assert evidence.diagnose((TWOS,), _record((2, torch.full((2,), 2.0, dtype=torch.float64))), _ref) == ""
    # the unchecked mistake equals the reference on n = 2: not revealed, not named
    assert evidence.diagnose((UNCHECKED,), _record((2, torch.zeros(2))), _ref) == ""
    # an exception where the reference raises, an answer from the mistake: revealed
    assert evidence.diagnose((UNCHECKED,), _record((0, torch.zeros(0))), _ref) == \
        "This looks like: unchecked (see Part 1)"
    raised = _record((0, diagnose.Raised(["ValueError", "Exception"])))
    assert evidence.diagnose((UNCHECKED,), raised, _ref) == ""


def _counts(n):
    if n < 1:
        raise ValueError(n)
    return torch.arange(1.0, n + 1)


def test_a_stand_ins_answers_are_no_evidence():
    """Is a mistake named for answers a stub nobody wrote gives (None, its argument,
    the reference's answer made zeros or ones)? Never, though the mistake gives them."""
    for answer in (None, 2, torch.zeros(2), torch.ones(2)):
        made = diagnose.Diagnosis("f", lambda n, a=answer: a, "made", "Part 1")
        assert evidence.diagnose((made,), _record((2, answer)), _counts) == "", answer
    assert evidence.diagnose((TWOS,), _record((2, torch.full((2,), 2.0))), _counts) == TWOS.text()


def test_a_raised_exception_matches_by_type_and_message_class():
    """A library's message (torch's, Python's) is evidence: it must be the student's.
    A mistake's own `raise` is free text, which any message of its type matches, and so
    is no evidence where every call raised: a stub raising everywhere does that too."""
    def library(n):
        return torch.zeros(n).view(n + 1)  # RuntimeError, torch's message

    try:
        library(2)
    except RuntimeError as exc:
        message = str(exc)
    view = diagnose.Diagnosis("f", library, "a view", "Part 1")
    raised = lambda m: _record((2, diagnose.Raised(["RuntimeError", "Exception"], m)))
    assert evidence.diagnose((view,), raised(message), _counts) == view.text()
    assert evidence.diagnose((view,), raised("shape '[3]' is invalid"), _counts) == ""
    from autograder.hw2_positions_params import diagnoses as hw2, reference as ref2
    zero = next(d for d in hw2.DIAGNOSES if d.mistake is hw2.pe_rejects_zero)
    free = diagnose.Calls(zero.question)
    free.add((0, 4), {}, diagnose.Raised(["ValueError", "Exception"], "no answer"))
    assert evidence.diagnose((zero,), free, ref2.sinusoidal_pe) == ""
    free.answered_before = True  # the stub answered in an earlier test: no such stand-in
    assert evidence.diagnose((zero,), free, ref2.sinusoidal_pe) == zero.text()


def test_a_load_that_fails_for_another_reason_is_not_a_bias():
    """A module whose load_state_dict raised is named "self.qkv has a bias" only when
    torch's message names the keys that mistake leaves missing (the class's name aside)."""
    from autograder.engine.intake import untrusted
    from autograder.hw1_attention import diagnoses as hw1, reference as ref1
    bias = next(d for d in hw1.DIAGNOSES if d.mistake is hw1.tsa_qkv_bias)
    with checks.seeded(0):
        state = ref1.TinySelfAttn(32, 4).state_dict()
    messages = {}
    for name, module in (("bias", hw1.tsa_qkv_bias(32, 4)),
                         ("empty", torch.nn.Module()), ("other", torch.nn.Linear(32, 96))):
        try:
            module.load_state_dict(state)
        except RuntimeError as exc:
            messages[name] = untrusted.text(str(exc).replace(type(module).__name__,
                                                             "TinySelfAttn"), 500)
    for name, named in (("bias", True), ("empty", False), ("other", False)):
        record = diagnose.Calls("TinySelfAttn")
        record.seed = 0
        handle = lambda at: RemoteObject(None, protocol.Handle(at + 1, "X"), (record, at))
        record.add((32, 4), {}, handle(0))
        record.add_step(0, "getattr", ("load_state_dict",), {}, handle(1))
        record.add_step(1, "call", (state,), {}, diagnose.Raised(["RuntimeError"], messages[name]))
        got = evidence.diagnose((bias,), record, ref1.TinySelfAttn)
        assert got == (bias.text() if named else ""), name


def test_an_assert_is_named_only_where_the_reference_refuses_with_value_error():
    """refused_with_assert's sign names an AssertionError on an argument the reference
    refuses with ValueError, in a function stub and in a class stub (a driven record),
    beside an answer; never an AssertionError on a valid argument, a ValueError, a test
    whose every call raised, or a call whose arguments hold a handle."""
    from autograder.hw1_attention import diagnoses as hw1, reference as ref1
    named = {d.mistake.__name__: d for d in hw1.DIAGNOSES}
    mask, tsa = named["mask_asserted"], named["tsa_asserted"]
    asserted = diagnose.Raised(["AssertionError", "Exception"], "n must be an int >= 1")

    def masks(*calls, before=False):
        record = diagnose.Calls("causal_mask")
        record.answered_before = before
        for n, answer in calls:
            record.add((n,), {}, answer)
        return evidence.diagnose((mask,), record, ref1.causal_mask)

    valid = (5, ref1.causal_mask(5))
    assert masks(valid, (0, asserted)) == mask.text()
    assert masks(valid, ("4", asserted)) == mask.text()
    assert masks(valid, (7, asserted)) == ""  # a valid n refused: another mistake
    assert masks(valid, (0, diagnose.Raised(["ValueError", "Exception"], "n < 1"))) == ""
    # only refusals: no answer of its own tells it from a stand-in raising everywhere
    assert masks((0, asserted)) == "" and masks((0, asserted), before=True) == ""
    handle = RemoteObject(None, protocol.Handle(9, "X"), None)
    assert masks(valid, (handle, asserted)) == ""

    record = diagnose.Calls("TinySelfAttn")
    record.seed = 0
    record.add((12, 3), {}, RemoteObject(None, protocol.Handle(1, "X"), (record, 0)))
    record.add((10, 3), {}, diagnose.Raised(["AssertionError", "Exception"], "h % heads"))
    assert evidence.diagnose((tsa,), record, ref1.TinySelfAttn) == tsa.text()


def test_a_large_negative_mask_is_named_whatever_the_constant():
    """Is a causal mask with a finite large negative number where -inf belongs named
    as that misconception for any such number, and never for -inf, a mild negative
    number or another dtype?"""
    from autograder.hw1_attention import diagnoses as hw1, reference as ref1
    found = [d for d in hw1.DIAGNOSES if d.mistake is hw1.mask_large_negative]
    masks = lambda fill, dtype=torch.float32: _record(*(
        (n, torch.triu(torch.full((n, n), fill, dtype=dtype), diagonal=1)) for n in (1, 2, 3)))
    for fill in (-1e4, -1e9, -1e10, torch.finfo(torch.float32).min):
        assert evidence.diagnose(found, masks(fill), ref1.causal_mask) == found[0].text(), fill
    for other in (masks(float("-inf")), masks(-10.0), masks(-1e9, torch.float64),
                  _record((1, torch.zeros(1, 1)))):
        assert evidence.diagnose(found, other, ref1.causal_mask) == ""


def _attention_record(attend, masked: bool, sizes=((4, 4, 8), (3, 7, 5))):
    from autograder.hw1_attention import reference as ref1
    calls = diagnose.Calls("scaled_dot_product_attention")
    g = torch.Generator().manual_seed(0)
    for n_q, n_k, d_k in sizes:
        q, k, v = (torch.randn(n, d_k, generator=g) for n in (n_q, n_k, n_k))
        mask = ref1.causal_mask(n_k)[:n_q] if masked else None
        args = (q, k, v) if mask is None else (q, k, v, mask)
        calls.add(args, {}, attend(*args))
    return calls


def _scaled_by(scale):
    def attend(q, k, v, mask=None):
        s = q @ k.transpose(-2, -1) / scale(q)
        w = torch.softmax(s if mask is None else s + mask, dim=-1)
        return w @ v, w
    return attend


def _masked_after_softmax(fill):
    def attend(q, k, v, mask=None):
        w = torch.softmax(q @ k.transpose(-2, -1) / q.shape[-1] ** 0.5, dim=-1)
        return w @ v, (w if mask is None else w.masked_fill(torch.isinf(mask), fill))
    return attend


def test_attention_scaled_by_any_other_number_is_named_as_such():
    """Are scores divided by another number than sqrt(d_k) named whatever the number
    (a hard-coded 4, sqrt(d_k) multiplied, sqrt of the number of queries, d_k), masked
    or not; 1 by its own diagnosis, sqrt(d_k) by none?"""
    from autograder.hw1_attention import diagnoses as hw1, reference as ref1
    found = [d for d in hw1.DIAGNOSES if d.question == "scaled_dot_product_attention"]
    text = {d.mistake.__name__: d.text() for d in found}
    diagnosed = lambda scale, masked: evidence.diagnose(
        found, _attention_record(_scaled_by(scale), masked), ref1.scaled_dot_product_attention)
    for scale in (lambda q: 4.0, lambda q: q.shape[-1] ** -0.5, lambda q: q.shape[-2] ** 0.5):
        for masked in (False, True):
            assert diagnosed(scale, masked) == text["sdpa_scaled_otherwise"]
    assert diagnosed(lambda q: q.shape[-1], True) == text["sdpa_scaled_otherwise"]
    assert diagnosed(lambda q: 1.0, False) == text["sdpa_unscaled"]
    assert diagnosed(lambda q: q.shape[-1] ** 0.5, True) == ""


def test_a_number_equal_to_the_only_d_k_seen_is_not_named_d_k():
    """A hard-coded 8 (graykode's sqrt(64)) where every call has d_k = 8 gives the
    answers of dividing by d_k: "divided by d_k" would be a guess, so both are named
    for what the answers show, another number than sqrt(d_k)."""
    from autograder.hw1_attention import diagnoses as hw1, reference as ref1
    found = [d for d in hw1.DIAGNOSES if d.question == "scaled_dot_product_attention"]
    text = {d.mistake.__name__: d.text() for d in found}
    for scale in (lambda q: 8.0, lambda q: q.shape[-1]):
        record = _attention_record(_scaled_by(scale), False, ((4, 4, 8), (6, 6, 8)))
        assert evidence.diagnose(found, record, ref1.scaled_dot_product_attention) == \
            text["sdpa_scaled_otherwise"]
    assert "d_k instead" not in " ".join(text.values())


def test_a_mask_after_the_softmax_is_named_whatever_fills_the_hidden_keys():
    """Named whatever fills the hidden keys' weights; not for an answer without a mask,
    nor for one that never reads the mask (its hidden keys keep the softmax's weight)."""
    from autograder.hw1_attention import diagnoses as hw1, reference as ref1
    found = [d for d in hw1.DIAGNOSES if d.question == "scaled_dot_product_attention"]
    named = [d.text() for d in found if d.mistake is hw1.sdpa_mask_after_softmax]
    for fill in (0.0, -1e9, float("-inf")):
        record = _attention_record(_masked_after_softmax(fill), masked=True)
        assert [evidence.diagnose(found, record, ref1.scaled_dot_product_attention)] == named
    # without a mask the answer is right: nothing to name
    unmasked = _attention_record(_masked_after_softmax(0.0), masked=False)
    assert evidence.diagnose(found, unmasked, ref1.scaled_dot_product_attention) == ""
    # a mask never read leaves every weight the softmax's: no mask acted after it
    unread = _attention_record(lambda q, k, v, mask=None: _scaled_by(
        lambda q: q.shape[-1] ** 0.5)(q, k, v), masked=True)
    assert evidence.diagnose(found, unread, ref1.scaled_dot_product_attention) == ""


def test_a_training_loop_that_ignores_lr_is_named_at_any_rate_it_uses_instead():
    """hw4's train_classifier run at a fixed rate (Adam's default, a fine-tuning
    recipe's 2e-5) instead of the lr given is named as such; the loops of its other
    mistakes by their own diagnosis; the correct loop, and a run at the given rate,
    by none."""
    from autograder.hw4_bert_finetuning import common, diagnoses as hw4, reference as ref4
    found = [d for d in hw4.DIAGNOSES if d.question == "train_classifier"]
    text = {d.mistake.__name__: d.text() for d in found}
    seed, config, key = hw4.LOOP_DATA[0]
    ids, labels = common.data(*key)

    def diagnosed(loop, rate, lr=3e-3, epochs=5):
        calls = diagnose.Calls("train_classifier")
        calls.add((object(), ids, labels), {"epochs": epochs, "lr": lr},
                  list(hw4._loop_trace(loop, seed, config, key, epochs, rate)))
        return evidence.diagnose(found, calls, ref4.train_classifier)
    assert diagnosed("adam", 1e-3) == diagnosed("adam", 2e-5) == text["tc_lr_ignored"]
    for loop in ("no_zero_grad", "sgd", "fresh_optimizer", "loss_after_step"):
        assert diagnosed(loop, 3e-3) == text[f"tc_{loop}"], loop
    assert diagnosed("adam", 3e-3) == diagnosed("adam", 1e-3, lr=1e-3) == ""


def _scheduled_losses(rate, epochs, step_size=5):
    """hw4's full-batch loop at Adam(rate) with StepLR(step_size, 0.1), on LOOP_DATA."""
    from autograder.hw4_bert_finetuning import common, diagnoses as hw4
    torch.manual_seed(0)
    seed, config, key = hw4.LOOP_DATA[0]
    model, (ids, labels) = common.reference_model(seed, config), common.data(*key)
    opt = torch.optim.Adam(model.parameters(), lr=rate)
    schedule, losses = torch.optim.lr_scheduler.StepLR(opt, step_size, gamma=0.1), []
    for _ in range(epochs):
        opt.zero_grad()
        loss = torch.nn.functional.cross_entropy(model(ids), labels)
        loss.backward()
        opt.step()
        schedule.step()
        losses.append(loss.item())
    return losses


def test_a_fixed_rate_is_named_whatever_schedule_follows_it():
    """A loop that hard-codes its rate and decays it (StepLR) is named for the rate it
    ignores, read on the losses before the decay; the same loop at the rate given is
    not (its schedule is the documented run's subject, not a declared mistake), nor is
    one that also answers fewer losses than asked (the epochs' diagnosis, alone)."""
    from autograder.hw4_bert_finetuning import common, diagnoses as hw4, reference as ref4
    found = [d for d in hw4.DIAGNOSES if d.question == "train_classifier"]
    text = {d.mistake.__name__: d.text() for d in found}
    ids, labels = common.data(*hw4.LOOP_DATA[0][2])

    def diagnosed(runs):  # runs: [(epochs, lr given, losses)]
        calls = diagnose.Calls("train_classifier")
        for epochs, lr, losses in runs:
            calls.add((object(), ids, labels), {"epochs": epochs, "lr": lr}, losses)
        return evidence.diagnose(found, calls, ref4.train_classifier)
    fixed = [(5, 3e-3, _scheduled_losses(1e-3, 5)), (12, 1e-4, _scheduled_losses(1e-3, 12))]
    assert fixed[1][2][7] != pytest.approx(hw4._loop_trace("adam", *hw4.LOOP_DATA[0], 12, 1e-3)[7])
    assert diagnosed(fixed) == text["tc_lr_ignored"]
    given = [(5, 3e-3, _scheduled_losses(3e-3, 5)), (12, 1e-4, _scheduled_losses(1e-4, 12))]
    assert diagnosed(given) == ""
    short = [(5, 3e-3, _scheduled_losses(1e-3, 5)), (12, 1e-4, _scheduled_losses(1e-3, 5))]
    assert diagnosed(short) != text["tc_lr_ignored"]


def test_two_matching_mistakes_name_none():
    twin = diagnose.Diagnosis("f", lambda n: torch.full((n,), 2.0), "twin", "Part 2")
    assert evidence.diagnose((TWOS, twin), _record((2, torch.full((2,), 2.0))), _ref) == ""


def _twos_plus_one(n):
    return torch.full((n,), 3.0)


def test_a_combined_diagnosis_names_each_mistake_and_the_simplest_match_wins():
    """A combined diagnosis (two mistakes at once) is named, a line for each, where its
    mistake alone gives the answers; where a single mistake and a combination holding
    it both do (the test cannot see the other), the single one is named; two
    unrelated matches still name nothing."""
    plus_one = diagnose.Diagnosis("f", _twos_plus_one, "plus one", "Part 2")
    both = diagnose.combined(_twos_plus_one, TWOS, plus_one)
    assert both.text() == f"{TWOS.text()}\n{plus_one.text()}"
    threes = _record((2, torch.full((2,), 3.0)))
    assert evidence.diagnose((TWOS, both), threes, _ref) == both.text()
    also_twos = diagnose.combined(_twos, TWOS, plus_one)  # the other mistake unseen
    twos = _record((2, torch.full((2,), 2.0)))
    assert evidence.diagnose((TWOS, also_twos), twos, _ref) == TWOS.text()
    twin = diagnose.Diagnosis("f", _twos, "twin", "Part 2")
    assert evidence.diagnose((TWOS, twin, diagnose.combined(_twos, TWOS, twin)), twos, _ref) == ""
    with pytest.raises(TypeError):
        diagnose.combined(_twos, TWOS)  # one mistake is no combination
    with pytest.raises(TypeError):
        diagnose.combined(_twos, TWOS, diagnose.Diagnosis("g", _twos, "g", "Part 2"))


def test_an_unchecked_argument_is_named_whatever_the_stub_answers_there():
    """accepted_unchecked's sign names a stub that answers an argument the reference
    refuses with ValueError (any answer), or fails there with another exception while
    it raises ValueError nowhere; never a ValueError, an AssertionError (the assert's
    own diagnosis), a stub with no answer of its own, another kind of bad argument, or
    a stub that checks with ValueError and lets one more through with a TypeError."""
    from autograder.hw1_attention import diagnoses as hw1, reference as ref1
    from autograder.hw2_positions_params import diagnoses as hw2, reference as ref2
    named = {d.mistake.__name__: d for d in (*hw1.DIAGNOSES, *hw2.DIAGNOSES)}
    mask, tsa = named["mask_unchecked"], named["tsa_unchecked"]
    value_error = diagnose.Raised(["ValueError", "Exception"], "n < 1")
    type_error = diagnose.Raised(["TypeError", "Exception"], "full(): argument 'size'")

    def masks(*calls):
        return evidence.diagnose((mask,), _record(*calls), ref1.causal_mask)

    valid = (5, ref1.causal_mask(5).bool())  # whatever its valid answers are
    for answer in (torch.zeros(0, 0, dtype=torch.bool), torch.zeros(0, 0), None, type_error):
        assert masks(valid, (0, answer)) == mask.text(), answer
    assert masks(valid, (0, value_error)) == ""
    assert masks(valid, (0, diagnose.Raised(["AssertionError", "Exception"], "n"))) == ""
    assert masks((0, torch.zeros(0, 0))) == masks((0, torch.zeros(0, 0)), (7, type_error)) == ""
    assert masks(valid, (0, value_error), (2.5, type_error)) == ""  # checked, another type
    assert masks(valid, (0, value_error), (-3, torch.zeros(0, 0))) == mask.text()

    def modules(forward: bool):
        record = diagnose.Calls("TinySelfAttn")
        record.seed = 0
        record.add((12, 3), {}, RemoteObject(None, protocol.Handle(1, "X"), (record, 0)))
        if forward:
            x = torch.randn(1, 2, 12, generator=torch.Generator().manual_seed(0))
            record.add_step(0, "call", (x,), {}, torch.full((1, 2, 12), 0.5))
        at = len(record.calls)
        record.add((10, 3), {}, RemoteObject(None, protocol.Handle(at + 1, "X"), (record, at)))
        return evidence.diagnose((tsa,), record, ref1.TinySelfAttn)
    assert modules(forward=True) == tsa.text()
    assert modules(forward=False) == ""  # handles alone: a module with no layers answers them

    d_unchecked, types_unchecked = named["pe_d_unchecked"], named["pe_types_unchecked"]
    table = ref2.sinusoidal_pe(4, 8)
    for n_pos, d, found in ((4, 7, d_unchecked), (3.5, 8, types_unchecked)):
        record = diagnose.Calls("sinusoidal_pe")
        record.add((4, 8), {}, table)
        record.add((n_pos, d), {}, table)
        assert evidence.diagnose((d_unchecked, types_unchecked), record,
                                 ref2.sinusoidal_pe) == found.text(), (n_pos, d)


def _overflows(n):
    return torch.full((n,), float(np.exp(np.float64(1000.0))))


def _overflow_sign(calls):
    return bool(np.exp(np.float64(1000.0)) > 0 and calls)


def test_a_replay_or_sign_warns_nothing_on_the_console():
    """A mistake's or a sign's NumPy overflow is its answer: no RuntimeWarning reaches
    the grader's console, and the grading thread's own error state is left as it was."""
    import warnings
    inf = _record((2, torch.full((2,), float("inf"))))
    replayed = diagnose.Diagnosis("f", _overflows, "overflows", "Part 1")
    sign = diagnose.Diagnosis("f", _overflow_sign, "a sign", "Part 1", replay=False)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert evidence.diagnose((replayed,), inf, _ref) == replayed.text()
        assert evidence.diagnose((sign,), inf, _ref) == sign.text()
    assert not [w for w in caught if issubclass(w.category, RuntimeWarning)], caught
    assert np.geterr()["over"] == "warn"


def test_unreplayable_or_spoiled_records_name_none():
    calls = _record((2, torch.full((2,), 2.0)))
    calls.spoiled = True
    assert evidence.diagnose((TWOS,), calls, _ref) == ""
    handle = diagnose.Calls("f")
    handle.add((object(),), {}, torch.full((2,), 2.0))
    assert evidence.diagnose((TWOS,), handle, _ref) == ""


def test_diagnosis_is_shown_beside_the_output_never_in_it():
    """feedback.md, feedback.html and results.json's test output show it; the test's
    output (what the snapshots compare) and the scores do not change."""
    t = results.TestResult("f", "test_x", "x", 0.0, 1.0, "weights differ", "visible",
                   diagnosis=TWOS.text())
    result = results.SubmissionResult("s", "a", tests=[t])
    ctx = feedback.Context("A", ["f"], {"f": 1.0})
    assert "looks like: twos (see Part 1)" in feedback.markdown(result, ctx)
    assert "looks like: twos (see Part 1)" in feedback.html(result, ctx)
    test = results.to_gradescope(result)["tests"][0]
    assert test["output"] == "weights differ\n\nThis looks like: twos (see Part 1)"
    assert (test["score"], test["status"], t.output) == (0.0, "failed", "weights differ")
    plain = results.to_gradescope(results.SubmissionResult("s", "a", tests=[results.TestResult(
        "f", "test_x", "x", 0.0, 1.0, "weights differ", "visible")]))
    assert plain["tests"][0]["output"] == "weights differ"


def _shows_twos(calls):
    return any(isinstance(a, torch.Tensor) and bool((a == 2).all()) for _, _, a in calls)


def test_a_sign_is_read_from_the_answers_without_replay():
    """A diagnosis that is a sign (replay=False) needs no replay, so a handle among the
    arguments does not stop it; a sign that breaks names nothing."""
    sign = diagnose.Diagnosis("f", _shows_twos, "twos", "Part 1", replay=False)
    handle = diagnose.Calls("f")
    handle.add((object(),), {}, torch.full((2,), 2.0))
    assert evidence.diagnose((sign,), handle, _ref) == "This looks like: twos (see Part 1)"
    zeros = diagnose.Calls("f")
    zeros.add((object(),), {}, torch.zeros(2))
    assert evidence.diagnose((sign,), zeros, _ref) == ""
    broken = diagnose.Diagnosis("f", lambda calls: 1 / 0, "never", "Part 1", replay=False)
    assert evidence.diagnose((sign, broken), handle, _ref) == sign.text()
    # signs alone allow larger records (nothing is replayed); with a replayed mistake, not
    assert diagnose.record_for("f", (sign,)).max_elements > diagnose.MAX_ELEMENTS
    assert diagnose.record_for("f", (sign, TWOS)).max_elements == diagnose.MAX_ELEMENTS


# Twins: a handle among the arguments, replayed through the grader's copy of its object.

class _Counter:
    """A stand-in for a model in the worker: the size it holds, and whether it was touched."""

    def __init__(self, size):
        self.size, self.touched = size, False


def _count(model, extra=()):
    return model.size


def _count_twice(model, extra=()):
    return 2 * model.size


def _count_and_touch(model, extra=()):
    model.touched = True
    return 2 * model.size


TWICE = diagnose.Diagnosis("f", _count_twice, "twice", "Part 2")


def _handle_record(answer, make=None, extra=()):
    handle = object()  # what the worker sent: nothing here can replay it
    calls = diagnose.Calls("f")
    calls.add((handle, list(extra)), {}, answer)
    if make is not None:
        calls.twin(handle, make)
    return calls


def test_a_handle_with_a_twin_is_replayed_on_it():
    made = []
    local = _Counter(3)
    make = lambda: made.append(1) or local
    assert evidence.diagnose((TWICE,), _handle_record(6, make), _count) == TWICE.text()
    assert evidence.diagnose((TWICE,), _handle_record(3, make), _count) == ""  # the reference's
    assert made  # made only now, for the replays: a passing test never calls make()


def test_a_handle_without_a_twin_names_nothing():
    record = _handle_record(6, lambda: _Counter(3))
    record.calls.append(((object(), []), {}, 6))  # a second handle, declared with no twin
    assert evidence.diagnose((TWICE,), record, _count) == ""
    broken = _handle_record(6, lambda: 1 / 0)  # a twin the test cannot make: no diagnosis
    assert evidence.diagnose((TWICE,), broken, _count) == ""


def test_a_twin_is_the_object_itself_and_other_arguments_are_copied():
    """The twin is passed as it is (a BERT-sized model is not copied for each mistake),
    the plain arguments as copies, which a mistake may modify without changing the record."""
    local, seen = _Counter(3), []

    def appends(model, extra=()):
        seen.append(model)
        extra.append(0)
        return 2 * model.size

    record = _handle_record(6, lambda: local, extra=[1])
    d = diagnose.Diagnosis("f", appends, "appends", "Part 2")
    assert evidence.diagnose((d,), record, _count) == d.text()
    assert seen == [local] and record.calls[0][0][1] == [1]
    assert not local.touched  # the replays of a mistake that only reads leave it as made


def test_a_twin_with_state_must_end_as_the_test_read_it():
    """A twin whose state the test read back is made afresh for each replay; a mistake
    matches only when it leaves the twin's state as the test saw the handle's."""
    made = []

    def make():
        made.append(_Counter(3))
        return made[-1]

    touch = diagnose.Diagnosis("f", _count_and_touch, "touches", "Part 2")
    for seen, named in ((False, TWICE), (True, touch)):
        handle = object()
        calls = diagnose.Calls("f")
        calls.add((handle, []), {}, 6)
        calls.twin(handle, make, read=lambda c: c.touched, seen=seen)
        made.clear()
        assert evidence.diagnose((TWICE, touch), calls, _count) == named.text()
        assert len(made) == 3  # one for each mistake, one for the reference
    # answers alike, only the state tells: the one that changes it is revealed
    handle = object()
    calls = diagnose.Calls("f")
    calls.add((handle, []), {}, 3)
    calls.twin(handle, make, read=lambda c: c.touched, seen=True)
    touch_once = diagnose.Diagnosis("f", lambda m, e=(): setattr(m, "touched", True) or m.size,
                                    "touches once", "Part 2")
    assert evidence.diagnose((touch_once,), calls, _count) == touch_once.text()
    with pytest.raises(TypeError):
        calls.twin(handle, make, read=lambda c: c.touched)  # a state needs what was seen


def test_student_twin_declares_a_handle_of_a_recorded_test_only():
    from autograder import protocol
    from autograder.engine.driving.student import RemoteObject, Student

    student = Student(None, 1.0)
    handle = RemoteObject(student, protocol.Handle(7, "Linear"))
    assert student.twin(handle, lambda: 1 / 0) is handle  # not recorded: nothing kept
    record = diagnose.Calls("f")
    student.record_calls(record)
    assert student.twin(handle, lambda: 1 / 0) is handle  # declared, not made
    assert list(record.twins) == [id(handle)]
    with pytest.raises(TypeError):
        student.twin(_Counter(1), _Counter)  # only a handle has a twin


def test_shared_answers_bring_their_twins_to_the_tests_that_read_them():
    import types

    from autograder import protocol
    from autograder.engine.driving.student import RemoteObject, Student

    conn = types.SimpleNamespace(memo={})
    first, later = Student(conn, 1.0), Student(conn, 1.0)
    handle = RemoteObject(first, protocol.Handle(3, "Model"))
    first.record_calls(diagnose.Calls("f"))
    later_record = diagnose.Calls("f")
    later.record_calls(later_record)

    def compute():  # a test's calls, as the Student records them
        first._record.add((handle, []), {}, 6)
        first.twin(handle, lambda: _Counter(3))
        return 6

    assert first.shared("k", compute) == later.shared("k", compute) == 6
    assert evidence.diagnose((TWICE,), later_record, _count) == TWICE.text()


# Class stubs: the handle a call answers, driven by the test, is recorded too.

class _CountingStub:
    """A class stub's reference: counts from 0; its weights are drawn at construction."""

    def __init__(self, n):
        if n < 1:
            raise ValueError(n)
        self.n, self.w = n, torch.randn(n)

    def values(self):
        return torch.arange(self.n)

    def noise(self):
        return self.w.clone()

    def myself(self):
        return self

    def counts(self):
        return iter(self.values().tolist())


class _CountsFromOne(_CountingStub):
    def values(self):
        return torch.arange(1, self.n + 1)


class _PlainSelf(_CountsFromOne):
    def myself(self):
        return torch.arange(1, self.n + 1)


FROM_ONE = diagnose.Diagnosis("Counter", _CountsFromOne, "from one", "Part 3")
PLAIN_SELF = diagnose.Diagnosis("Counter", _PlainSelf, "plain self", "Part 3")


class _Driving:
    """A record of the stub Counter as Student fills it: the constructor's answer is a
    handle, whose method reads and calls are Steps."""

    def __init__(self, seed=0):
        self.record = diagnose.Calls("Counter")
        self.record.seed = seed

    def _handle(self):
        at = len(self.record.calls)
        return RemoteObject(None, protocol.Handle(at + 1, "Counter"), (self.record, at))

    def new(self, n):
        self.record.add((n,), {}, self._handle())
        return len(self.record.calls) - 1

    def call(self, on, method, answer):
        """obj.method() answering `answer` (a handle when answer is HANDLE)."""
        bound = self._handle()
        self.record.add_step(on, "getattr", (method,), {}, bound)
        self.record.add_step(len(self.record.calls) - 1, "call", (), {},
                             self._handle() if answer is diagnose.HANDLE else answer)


def test_class_stub_matches_on_every_method_answer():
    driving = _Driving()
    counter = driving.new(3)
    driving.call(counter, "values", torch.arange(1, 4))
    assert driving.record.driven
    assert evidence.diagnose((FROM_ONE,), driving.record, _CountingStub) == FROM_ONE.text()
    # a later answer that is not the mistake's: no match
    driving.call(counter, "values", torch.arange(0, 3))
    assert evidence.diagnose((FROM_ONE,), driving.record, _CountingStub) == ""


def test_class_stub_compares_handles_and_plain_answers():
    """A handle answered where the mistake answers a handle is the same answer; a
    handle where it answers plain data, or plain data where it answers a handle, is not."""
    driving = _Driving()
    counter = driving.new(2)
    driving.call(counter, "values", torch.arange(1, 3))
    driving.call(counter, "myself", diagnose.HANDLE)
    assert evidence.diagnose((FROM_ONE, PLAIN_SELF), driving.record, _CountingStub) == FROM_ONE.text()
    plain = _Driving()
    counter = plain.new(2)
    plain.call(counter, "values", torch.arange(1, 3))
    plain.call(counter, "myself", torch.arange(1, 3))
    assert evidence.diagnose((FROM_ONE, PLAIN_SELF), plain.record, _CountingStub) == PLAIN_SELF.text()
    # an exception where the mistake answers: no match
    raised = _Driving()
    raised.record.add((2,), {}, diagnose.Raised(["ValueError", "Exception"]))
    assert evidence.diagnose((FROM_ONE,), raised.record, _CountingStub) == ""


def test_class_stub_replays_the_workers_seeds():
    """Weights drawn at construction are answers too: replayed under the seed the worker
    had (the test's, or one student.seed() gave), and only then the same."""
    with checks.seeded(7):
        drawn = _CountsFromOne(2).w
    for seed, reseeded, named in ((7, None, True), (8, None, False), (8, 7, True)):
        driving = _Driving(seed)
        if reseeded is not None:
            driving.record.reseeded(reseeded)
        counter = driving.new(2)
        driving.call(counter, "values", torch.arange(1, 3))
        driving.call(counter, "noise", drawn.clone())
        assert (evidence.diagnose((FROM_ONE,), driving.record, _CountingStub) != "") is named, seed


def test_what_a_handle_answers_is_bounded_as_a_calls_answers():
    """Steps count towards MAX_CALLS and MAX_ELEMENTS: a handle that answers without
    end, or large answers, leaves nothing to replay."""
    many = _Driving()
    counter = many.new(2)
    for _ in range(diagnose.MAX_CALLS // 2):
        many.call(counter, "values", torch.arange(1, 3))
    assert many.record.spoiled and len(many.record.calls) == diagnose.MAX_CALLS
    assert evidence.diagnose((FROM_ONE,), many.record, _CountingStub) == ""
    large = _Driving()
    counter = large.new(diagnose.MAX_ELEMENTS + 1)
    large.call(counter, "values", torch.arange(1, diagnose.MAX_ELEMENTS + 2))
    assert large.record.spoiled
    assert evidence.diagnose((FROM_ONE,), large.record, _CountingStub) == ""


def test_class_stub_that_the_reference_drives_alike_is_not_named():
    driving = _Driving()
    counter = driving.new(2)
    driving.call(counter, "myself", diagnose.HANDLE)  # the reference answers itself too
    assert evidence.diagnose((FROM_ONE,), driving.record, _CountingStub) == ""


COUNTER_CELL = '''
import torch
class Counter:
    def __init__(self, n):
        self.n, self.w = n, torch.randn(n)
    def values(self):
        return torch.arange(1, self.n + 1)
    def noise(self):
        return self.w.clone()
    def myself(self):
        return self
    def counts(self):
        return iter(range(1, self.n + 1))
def keep(obj):
    obj.n = 0
'''


@pytest.fixture(scope="module")
def counter_worker():
    from tests.engine.workers_at_hand import template_of, worker_that_ran
    with template_of("hw1_attention") as template, worker_that_ran(template, COUNTER_CELL) as conn:
        yield conn


def _recording(conn, seed=3):
    from autograder.engine.driving.student import Student
    student = Student(conn, call_seconds=30)
    record = diagnose.Calls("Counter")
    student.record_calls(record)
    student.reset(seed)
    return student, record


def test_student_records_what_the_test_does_to_a_class_stubs_handle(counter_worker):
    """Method reads and calls, attribute reads, list() and seeds: in order, each Step
    naming the entry that answered its handle; the mistake is then named."""
    student, record = _recording(counter_worker)
    m = student.Counter(3)
    assert m.n == 3
    assert m.values().tolist() == [1, 2, 3]
    student.seed(5)
    second = student.Counter(2)
    noise = second.noise()
    assert m.myself().type_name == "Counter"
    assert student.list(m.counts()) == [1, 2, 3]
    steps = [(c.on, c.op) if isinstance(c, diagnose.Step) else "call" for c in record.calls]
    assert steps == ["call", (0, "getattr"), (0, "getattr"), (2, "call"), "call", (4, "getattr"),
                     (5, "call"), (0, "getattr"), (7, "call"), (0, "getattr"), (9, "call"),
                     (10, "list")]
    assert (record.seed, record.seeds, record.driven, record.spoiled) == (3, [(4, 5)], True, False)
    with checks.seeded(5):
        assert torch.equal(noise, torch.randn(2))
    assert evidence.diagnose((FROM_ONE, PLAIN_SELF), record, _CountingStub) == FROM_ONE.text()


def test_a_recorded_handle_sent_elsewhere_spoils_the_record(counter_worker):
    """The student's code may change an object it is given where no Step sees it."""
    student, record = _recording(counter_worker)
    m = student.Counter(3)
    m.values()
    assert not record.spoiled
    student.keep(m)
    assert record.spoiled
    assert evidence.diagnose((FROM_ONE,), record, _CountingStub) == ""


def test_driven_answers_are_kept_for_the_same_inputs_only():
    """A class stub's replay is kept per (stub, inputs): a later submission failing the
    same test on the same inputs is compared without building the models again; other
    inputs, another seed or another stub drive afresh; the verdict never changes."""
    built = []

    class Counted(_CountsFromOne):
        def __init__(self, n):
            built.append(n)
            super().__init__(n)

    counted = diagnose.Diagnosis("Counter", Counted, "from one", "Part 3")

    def record(n, seed=0):
        driving = _Driving(seed)
        driving.call(driving.new(n), "values", torch.arange(1, n + 1))
        return driving.record

    for _ in range(3):
        assert evidence.diagnose((counted,), record(4), _CountingStub) == counted.text()
    assert built == [4]  # driven once, kept since
    assert evidence.diagnose((counted,), record(5), _CountingStub) == counted.text()
    assert evidence.diagnose((counted,), record(4, seed=1), _CountingStub) == counted.text()
    assert built == [4, 5, 4]
    other = record(4)
    other.calls[-1] = diagnose.Step(other.calls[-1].on, "call", (), {}, torch.arange(4))
    assert evidence.diagnose((counted,), other, _CountingStub) == ""  # a student's other answer
    assert built == [4, 5, 4]
    # a drive stopped at a student's other answer is driven on for one who agrees with it
    wrong = record(6)
    wrong.calls[-1] = diagnose.Step(wrong.calls[-1].on, "call", (), {}, torch.arange(6))
    assert evidence.diagnose((counted,), wrong, _CountingStub) == ""
    for _ in range(2):
        assert evidence.diagnose((counted,), record(6), _CountingStub) == counted.text()
    assert built == [4, 5, 4, 6, 6]
    # a digest tells dtypes, shapes and values apart, and refuses what it cannot read
    digest = lambda args: diagnose._inputs_digest(_args_record(args))
    assert len({digest((torch.zeros(2),)), digest((torch.zeros(2, dtype=torch.float64),)),
                digest((torch.zeros(1, 2),)), digest((torch.ones(2),)), digest(([0.0, 0.0],)),
                digest(((0.0, 0.0),))}) == 6
    assert digest((object(),)) is None


def _args_record(args):
    calls = diagnose.Calls("f")
    calls.add(args, {}, 0)
    return calls


def test_a_replay_runs_on_copies_of_the_arguments():
    """A mistake may modify its arguments in place: the recorded ones stay as the test
    sent them, an object passed twice is still one object in the replay, and anything
    but plain data (and handles with a twin) is not replayed."""
    from collections import OrderedDict
    x, a = torch.ones(3), np.zeros(2)
    args = (x, [a, x], OrderedDict(w=x), torch.Size([2]), np.float32(2.0))
    seen = []

    def mistake(x, pair, state, size, scale):
        seen.append((pair[1] is x, state["w"] is x))
        x.add_(1)
        pair[0][:] = 5
        return size, scale
    assert diagnose._replay(mistake, args, {}) == (torch.Size([2]), np.float32(2.0))
    assert seen == [(True, True)]
    assert torch.equal(x, torch.ones(3)) and not a.any()
    with pytest.raises(diagnose.Unreplayable):
        diagnose._replay(mistake, ([object()],), {})
