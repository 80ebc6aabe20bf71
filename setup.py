"""Build the C extensions (exact-cover kernel, Latin bitboard, dissection counter, jigsaw squares by
placements, Latin rectangles by column sets, distinguishing patterns); metadata in pyproject."""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "dlx_latin.exact_cover._kernel",
            sources=["dlx_latin/exact_cover/_kernel.c"],
            depends=["dlx_latin/u128.h"],
            extra_compile_args=["-O3", "-std=c99"],
        ),
        Extension(
            "dlx_latin.latin._bitboard",
            sources=["dlx_latin/latin/_bitboard.c"],
            extra_compile_args=["-O3", "-std=c99"],
        ),
        Extension(
            "symmetry._rectangles",
            sources=["symmetry/_rectangles.c"],
            depends=["dlx_latin/u128.h"],
            extra_compile_args=["-O3", "-std=c99"],
        ),
        Extension(
            "dlx_latin.puzzles._patterns",
            sources=["dlx_latin/puzzles/_patterns.c"],
            extra_compile_args=["-O3", "-std=c99"],
        ),
        Extension(
            "dlx_latin.jigsaw._frontier",
            sources=["dlx_latin/jigsaw/_frontier.c"],
            depends=["dlx_latin/u128.h"],
            extra_compile_args=["-O3", "-std=c99"],
        ),
        Extension(
            "dlx_latin.jigsaw._placements",
            sources=["dlx_latin/jigsaw/_placements.c"],
            depends=["dlx_latin/u128.h"],
            extra_compile_args=["-O3", "-std=c99"],
        ),
    ]
)
