/* Exact-cover kernel (placeholder until the search lands). */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

static PyObject *kernel_version(PyObject *self, PyObject *args) { return PyLong_FromLong(1); }

static PyMethodDef methods[] = {
    {"version", kernel_version, METH_NOARGS, "Kernel ABI version."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_kernel", NULL, -1, methods};

PyMODINIT_FUNC PyInit__kernel(void) { return PyModule_Create(&module); }
