"""What the tests check against, written apart from both implementations.

- ``naive``: an obviously-correct brute-force meld solver (deadwood, arrangements);
- ``settlement``: the one settlement oracle: the expected settlement by brute force,
  a replay of any reported settlement, and ``verify`` that does both for a deal;
- ``deals``: the one generator of random closable deals for the settlement tests;
- ``strategies``: random hands, as hypothesis strategies and as numpy mask batches;
- ``tables``: stacked decks and ready-made tables for the game tests;
- ``impls``: the implementations under test and the scale of the random tests.
"""
