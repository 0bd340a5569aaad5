# split: measure
# source: organization-x/NLP-Notebooks-Summer-2022, Week2/Dataset.py (Dataset.__getitem__'s dec_in and
# source: dec_out for one continuation of ids, with no out_maxlen to truncate to and no tokenizer:
# source: "<SOS>" and "<EOS>" are sos_id and eos_id)
def teacher_forcing(continuation, sos_id, eos_id):
    dec_in = list(continuation)
    dec_in = [sos_id] + dec_in

    dec_out = list(continuation)
    dec_out = dec_out + [eos_id]

    return dec_in, dec_out
