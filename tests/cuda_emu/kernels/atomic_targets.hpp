// Where apply_atomics (atomics.cuh) applies each atomic flavour: device pointers.
#pragma once

struct AtomicTargets {
    int* int_sum;
    unsigned* uint_sum;
    unsigned long long* ull_sum;
    float* float_sum;
    double* double_sum;
    int* int_sub;
    int* int_min;
    int* int_max;
    unsigned long long* ull_max;
    unsigned* bits_and;
    unsigned* bits_or;
    unsigned* bits_xor;
    unsigned* inc;  // atomicInc with limit 9
    unsigned* dec;  // atomicDec with limit 9
    int* cas_sum;   // summed through an atomicCAS loop
    float* exch;
};
