"""Type stub of the compiled module ``chinchon._core._hands`` (built from _hands.pyx):
it installs the native constructors of Hand and Card when imported
(:func:`chinchon.cards.use_native_constructors`); nothing in it is for Python code."""
