"""Type stub of the compiled module ``chinchon._core._results`` (built from
_results.pyx): its builders are C functions for the other modules of the binding
(``_results.pxd``); nothing in it is for Python code."""
