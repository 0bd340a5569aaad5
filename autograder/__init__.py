"""A grader for the Transformers/BERT unit's notebooks: build student
notebooks and Gradescope zips, grade submissions in sandboxed workers."""
