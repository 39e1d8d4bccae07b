# Thin wrapper: all build logic is in CMakeLists.txt.
#   make            configure and build (PETSC_DIR/PETSC_ARCH from the environment; Debian's PETSc by default)
#   make test       build and run the test suite (CTest)
#   make demo       build and run the 2D Poisson demonstration
#   make install    install into PREFIX (default /usr/local)
BUILD_DIR ?= build
PREFIX ?= /usr/local
NP ?= 2
CMAKE_ARGS ?=
CTEST_ARGS ?=
all:
	./tools/deps.sh
	cmake -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX=$(PREFIX) $(if $(PETSC_DIR),-DPETSC_DIR=$(PETSC_DIR)) $(if $(PETSC_ARCH),-DPETSC_ARCH=$(PETSC_ARCH)) $(CMAKE_ARGS)
	cmake --build $(BUILD_DIR) -j $(NP)
test: all
	OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 ctest --test-dir $(BUILD_DIR) --output-on-failure -j $(NP) $(CTEST_ARGS) $(if $(LABEL),-L '$(LABEL)') $(if $(LABEL_EXCLUDE),-LE '$(LABEL_EXCLUDE)')
demo: all
	./examples/demo.sh $(BUILD_DIR)
install: all
	cmake --install $(BUILD_DIR)
clean:
	rm -rf $(BUILD_DIR)
.PHONY: all test demo install clean
