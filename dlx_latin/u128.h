/* u128.h -- unsigned 128-bit counts for the C extensions, and their conversion to Python ints. */
#ifndef DLX_LATIN_U128_H
#define DLX_LATIN_U128_H
#include <Python.h>

typedef unsigned __int128 u128;
#define U128_MAX (~(u128)0)

/* A Python int holding v exactly (NULL with an exception set on failure). */
static PyObject *u128_to_pylong(u128 v)
{
    PyObject *hi = PyLong_FromUnsignedLongLong((unsigned long long)(v >> 64));
    PyObject *lo = PyLong_FromUnsignedLongLong((unsigned long long)v);
    PyObject *shift = PyLong_FromLong(64), *shifted = NULL, *out = NULL;
    if (hi && lo && shift && (shifted = PyNumber_Lshift(hi, shift))) out = PyNumber_Or(shifted, lo);
    Py_XDECREF(hi); Py_XDECREF(lo); Py_XDECREF(shift); Py_XDECREF(shifted);
    return out;
}

#endif
