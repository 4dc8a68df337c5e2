"""The v2 trigger DSL: lexer, parser, printer, dependencies, evaluator, durations.

Public surface; everything else in this package is private to it.
"""
