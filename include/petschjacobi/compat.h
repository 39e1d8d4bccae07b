/* The differences between the PETSc releases petsc-hjacobi builds against (3.18 and later), in one place. The library,
   its examples, tests and benchmarks include this header instead of testing PETSC_VERSION themselves. */
#pragma once

#include <petscversion.h>
#include <petscksp.h>

#if PETSC_VERSION_LT(3, 18, 0)
  #error "petsc-hjacobi needs PETSc 3.18 or later"
#endif

/* 3.19: PetscErrorCode became an enum with PETSC_SUCCESS */
#if PETSC_VERSION_LT(3, 19, 0)
  #define PETSC_SUCCESS 0
#endif

/* 3.22: "keep the current value" in KSPSetTolerances() and friends is PETSC_CURRENT (PETSC_DEFAULT before) */
#if PETSC_VERSION_GE(3, 22, 0)
  #define HJ_TOL_KEEP PETSC_CURRENT
#else
  #define HJ_TOL_KEEP PETSC_DEFAULT
#endif

/* 3.23: a type's SetFromOptions takes PetscOptionItems by value (a pointer before); the name PetscOptionsObject is
   what PetscOptionsHeadBegin() and friends expect */
#if PETSC_VERSION_LT(3, 23, 0)
  #define HJ_OPTION_ITEMS PetscOptionItems *PetscOptionsObject
#else
  #define HJ_OPTION_ITEMS PetscOptionItems PetscOptionsObject
#endif

/* 3.25: KSPSetDMActive() says which of the operator, right-hand side and initial guess the DM computes; here all or
   none, as before */
static inline PetscErrorCode HJKSPSetDMActive(KSP ksp, PetscBool flg)
{
#if PETSC_VERSION_GE(3, 25, 0)
  return KSPSetDMActive(ksp, KSP_DMACTIVE_ALL, flg);
#else
  return KSPSetDMActive(ksp, flg);
#endif
}

/* 3.25: MatShellSetOperation() takes a PetscErrorCodeFn * (before: void (*)(void)) */
#if PETSC_VERSION_GE(3, 25, 0)
  #define HJ_MATOP_FN(f) ((PetscErrorCodeFn *)(f))
#else
  #define HJ_MATOP_FN(f) ((void (*)(void))(f))
#endif
