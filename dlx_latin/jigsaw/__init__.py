"""Jigsaw Sudoku: dissections of the n x n square into n connected n-ominoes, and Latin squares on them."""
