"""Statement facts: numbers read from financial-statement tables, placed in the fiscal
calendar and named by a concept vocabulary."""
