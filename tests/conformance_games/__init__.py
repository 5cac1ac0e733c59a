"""Small games for tests/test_conformance.py: a correct one (:mod:`.numbers`, any number of
actions), the same with hand-written rollouts (:mod:`.numbers_rollouts`), and variants that each
break one rule of the contract in their kernels. Kernels live at module level and the generated
search is per kernel module, so every broken variant has a module of its own; it imports the
correct kernels and replaces only the one at fault."""
