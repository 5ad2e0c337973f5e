"""Type stub of the compiled module ``chinchon._core._common`` (built from _common.pyx):
its helpers are C functions for the other modules of the binding (``_common.pxd``);
nothing in it is for Python code."""
