/* Private: the PCHJMG context (PCMG's innerctx) and the per-level installs of src/mg/levels.cxx. */
#pragma once

#include <petschjacobi/private/pchjacobiimpl.h>
#include <petsc/private/pcmgimpl.h>

/* -pc_hjmg_gather_size's default; the measurements are in doc/design.md "The coarse levels gathered" */
#define HJMG_GATHER_SIZE 32768 /* on device vectors (host vectors: only when given); on 2 H200s the best cut (33^3 of 257^3) */

/* what hjmg installed on one level (l >= 1) at the last setup */
typedef struct {
  Mat              residual;   /* the MATSHELL given to PCMGSetResidual (NULL: PCMG's own residual on this level) */
  PetscBool        transposed; /* MatRestrict() applies the level's restriction matrix transposed (P^T: no separate R) */
  PetscBool        explicitT;  /* ... and hjmg set MAT_FORM_EXPLICIT_TRANSPOSE on it (a GPU AIJ) */
  Mat              transfer;   /* the stencil transfers (src/mg/transfer.cxx) made for the level's interpolation P, or NULL; while installed
                           it is the level's interpolation and restriction, and P goes back before every PCMG setup */
  PetscObjectState pstate;     /* P's state when transfer was checked against it */
  const char      *notransfer; /* why the level keeps P's product (the last setup), or NULL */
} HJMGLevel;

/* the recorded V-cycle (src/mg/graph.cxx): where it stands since the last setup */
typedef enum {
  HJMG_GRAPH_FIRST,  /* the next PCApply runs PCMG's path and decides whether to record */
  HJMG_GRAPH_RECORD, /* the next PCApply records (and checks the recording against PCMG's path) */
  HJMG_GRAPH_REPLAY, /* PCApply replays */
  HJMG_GRAPH_OFF     /* PCMG's path until the next setup (why: off) */
} HJMGGraphState;

typedef struct {
  HJMGGraphState      state;
  char                off[256]; /* why PCMG's path runs */
  const HJBackendOps *ops;      /* the backend that records (the vectors') */
  void               *rec;      /* its recording */
  Vec                 b, x;     /* the vectors the recording reads and writes: the caller's (direct), or copies of
                                    theirs (bc, xc) once a PCApply came with other arrays */
  Vec                 bc, xc;   /* the copies (NULL: direct) */
  const void         *barr;     /* b's and x's device arrays when recorded */
  void               *xarr;
  PetscObjectState   *sig; /* what the recording depends on besides the arrays: every level's operator state and
                                    smoothers' iteration counts, at the recording (nsig entries), then the last
                                    PCApply's (nsig entries, compared with them) */
  PetscInt            nsig;
  PetscInt            nreplay; /* replays since the last setup */
  PetscInt            nrecord; /* recordings since the last setup */
} HJMGGraph;

/* hjmg's Richardson iteration recorded (src/mg/richardson.cxx): each V-cycle as two recordings, the finest level's
   pre-smoothing and residual (rec[0]), then the rest (rec[1]), so that PCMG's test of that residual's norm between the
   two stays; states as HJMGGraph's, on the caller's vectors only (other arrays: recorded again) */
typedef struct {
  HJMGGraphState      state;
  char                off[256]; /* why PCMG's iteration runs */
  const HJBackendOps *ops;
  void               *rec[2];
  const void         *barr; /* the finest level's b and x arrays when recorded */
  void               *xarr;
  PetscObjectState   *sig; /* as HJMGGraph's */
  PetscInt            nsig;
  PetscInt            nreplay; /* V-cycles replayed since the last setup */
  PetscInt            nrecord;
} HJMGRichGraph;

/* PCMG's operations and its "PCMGSetLevels_C", saved at PCCreate_HJMG and called from the overrides: PCSetUp_MG and
   the others are PETSC_INTERN in libpetsc, so a plugin reaches them only through the pointers PCMG put in pc->ops */
typedef struct {
  PetscErrorCode (*setup)(PC);
  PetscErrorCode (*setfromoptions)(PC, HJ_OPTION_ITEMS);
  PetscErrorCode (*reset)(PC);
  PetscErrorCode (*destroy)(PC);
  PetscErrorCode (*setlevels)(PC, PetscInt, MPI_Comm *);
  PetscErrorCode (*applytranspose)(PC, Vec, Vec);
  PetscErrorCode (*apply)(PC, Vec, Vec);
  /* PCMG's Richardson iteration, saved at each setup where PCMG installed it (PCMGSetType(): multiplicative cycles) and
     replaced by HJMGRichardson, which calls it */
  PetscErrorCode (*applyrichardson)(PC, Vec, Vec, Vec, PetscReal, PetscReal, PetscReal, PetscInt, PetscBool, PetscInt *, PCRichardsonConvergedReason *);
  /* options (read at PCSetFromOptions, applied at every PCSetUp) */
  PetscBool     stencilresidual; /* -pc_hjmg_stencil_residual: the residual of levels >= 1 through the hjacobi smoother */
  PetscBool     graph;           /* -pc_hjmg_graph: the V-cycle recorded once and replayed where every level is hjmg's own */
  HJMGGraph     g;
  HJMGRichGraph rg;
  PetscBool     explicitrestriction; /* -pc_hjmg_explicit_restriction: MAT_FORM_EXPLICIT_TRANSPOSE on GPU AIJ interpolations */
  PetscBool     stenciltransfer;     /* -pc_hjmg_stencil_transfer: interpolation and restriction on the stencil where P is DMDA's Q1 */
  PetscBool     stenciltransferset;  /* ... given: then also on several ranks on host vectors (by default one rank or device vectors: on 2 CPU ranks the steady finest-level transfers measured 29-42% slower) */
  PetscInt      autolevels;          /* levels hjmg chose from the DMDA (no -pc_mg_levels, no refinements); 0: none chosen */
  PetscInt      autorows;            /* ... stopping at the first grid with at most this many rows (the coarse hjdense's); 0: not */
  PetscInt      gathersize;          /* -pc_hjmg_gather_size: points per rank below which the coarser levels go to one rank (0: never) */
  PetscBool     gathersizeset;       /* ... given: then also on host vectors */
  PetscInt      gathered;            /* levels gathered onto one rank at the first setup (0: none) */
  PetscInt      gathergrid[3];       /* ... the grid of the finest of them, the last level PCMG keeps */
  PetscBool     gatheredT;           /* ... and their coarse PC (PCTELESCOPE) has hjmg's transpose (HJMGGatherTranspose) */
  PetscInt      nlevels;             /* entries of lev: PCMG's levels at the last setup (level 0 unused) */
  HJMGLevel    *lev;
} PC_HJMG;

/* src/mg/levels.cxx: the smoothers' defaults on levels PCMG just made; the roles of the hjacobi smoothers; after
   PCMG's setup, the residual shells, the stencil transfers and the explicit transposes of every level; their removal (reset: PCMG installs
   its residual again at the next setup); the view's lines */
PETSC_INTERN PetscErrorCode HJMGLevelsDefaults(PC);
PETSC_INTERN PetscErrorCode HJMGLevelsRoles(PC);
PETSC_INTERN PetscErrorCode HJMGLevelsSetUp(PC);
PETSC_INTERN PetscErrorCode HJMGLevelsReset(PC);
PETSC_INTERN PetscErrorCode HJMGLevelsRestoreTransfers(PC); /* the levels' own interpolations again (before PCMG's setup) */
PETSC_INTERN PetscErrorCode HJMGLevelsView(PC, PetscViewer);
PETSC_INTERN PetscErrorCode HJMGLevelsOwn(PC, char[], size_t, const char **);   /* every level hjmg's own (why not) */
PETSC_INTERN PetscErrorCode HJMGLevelsFallbacks(PC, PetscInt *);                /* residuals and transfers by PETSc's products so far */
PETSC_INTERN PetscErrorCode HJMGRichardsonScale(KSP, PetscReal *, PetscBool *); /* a KSPRICHARDSON's scale and self-scaling (1, false otherwise) */
/* src/mg/graph.cxx: PCApply as a replayed recording of PCMG's V-cycle; forgotten at every setup and reset; the view's line */
PETSC_INTERN PetscErrorCode HJMGGraphApply(PC, Vec, Vec);
PETSC_INTERN PetscErrorCode HJMGGraphReset(PC);
PETSC_INTERN PetscErrorCode HJMGGraphView(PC, PetscViewer);
/* ... why the V-cycle cannot be recorded (NULL: it can) and b's and x's backend, and what a recording depends on
   besides the arrays (sig NULL: the number of entries) */
PETSC_INTERN PetscErrorCode HJMGGraphEligible(PC, Vec, Vec, const HJBackendOps **, char[], size_t, const char **);
PETSC_INTERN PetscErrorCode HJMGGraphSignature(PC, PetscObjectState *, PetscInt *);
/* src/mg/richardson.cxx: PCApplyRichardson as PCMG's iteration with each V-cycle replayed in two recordings where the
   V-cycle can be recorded; forgotten at every setup and reset; the view's line */
PETSC_INTERN PetscErrorCode HJMGRichardson(PC, Vec, Vec, Vec, PetscReal, PetscReal, PetscReal, PetscInt, PetscBool, PetscInt *, PCRichardsonConvergedReason *);
PETSC_INTERN PetscErrorCode HJMGRichardsonReset(PC);
PETSC_INTERN PetscErrorCode HJMGRichardsonView(PC, PetscViewer);
/* src/mg/gather.cxx: before PCMG's first setup, on several ranks, the levels below -pc_hjmg_gather_size points per rank
   gathered onto one rank (PCTELESCOPE and an inner hjmg) unless the user chose the coarse solve */
PETSC_INTERN PetscErrorCode HJMGGatherDefault(PC);
/* ... and after every PCMG setup: the transpose PCTELESCOPE lacks, installed on the coarse PC (a KSPPREONLY inner solve's
   apply with the inner PC transposed) */
PETSC_INTERN PetscErrorCode HJMGGatherTranspose(PC);
/* ... and after PCMG's reset: the coarse PCTELESCOPE made again (its own reset keeps an inner KSP that its next setup replaces) */
PETSC_INTERN PetscErrorCode HJMGGatherReset(PC);
/* src/mg/coarse.cxx: before PCMG's first setup, PCHJDENSE as the coarse solve on CUDA vectors unless the user chose one */
PETSC_INTERN PetscErrorCode HJMGCoarseDefault(PC);
/* ... and before hjmg chooses the levels: the rows of the largest coarse operator whose inverse that hjdense forms
   (-pc_hjdense_max_size, the coarse prefix's), or 0 where the coarse solve will not be hjdense (host vectors, a coarse
   solve the user chose) */
PETSC_INTERN PetscErrorCode HJMGCoarseDenseRows(PC, PetscInt *);
/* ... whether the user chose the coarse PC cpc: any of its PC or factor options, or of a PCREDUNDANT's inner ones */
PETSC_INTERN PetscErrorCode HJMGCoarseChosen(PC, PetscBool *);
