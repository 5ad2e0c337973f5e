"""What the tests check against, written apart from both implementations.

- ``naive``: an obviously-correct brute-force meld solver (deadwood, arrangements);
- ``strategies``: random hands, as hypothesis strategies and as numpy mask batches;
- ``examples``: the worked examples of the rules page, from tests/data;
- ``impls``: the implementations under test and the scale of the random tests.
"""
