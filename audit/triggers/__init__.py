"""Trigger semantics shared by the checks and the fuzzer: the atoms a trigger reads, the values
worth probing, normal form, contradiction proofs, Hypothesis search and strategies, witnesses."""
