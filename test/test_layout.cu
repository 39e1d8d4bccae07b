/* test_layout.cxx compiled by nvcc */
#include "test_layout.cxx"
