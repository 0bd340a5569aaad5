# question: mask_fraction
# fails: test_fraction
# diagnosis: fraction_specials_selected
# [CLS]/[SEP] taken as selectable like any other position.
MASK_FRACTION = P["mask_fraction"]["select_prob"] * P["mask_fraction"]["mask_prob"]
