# SPDX-License-Identifier: GPL-2.0
#
# optprobe's driver makefile: it fetches what the build needs (scripts/deps),
# builds through kbuild in build/ARCH/, and runs tests in QEMU
# (scripts/vm-run).  "make help" lists the targets.

ARCH ?= x86_64
# KERNEL=6.12: Debian's 6.12 from bookworm-backports instead of bookworm's 6.1
KERNEL ?= 6.1
TOP := $(patsubst %/,%,$(dir $(abspath $(lastword $(MAKEFILE_LIST)))))
CACHE := $(TOP)/.cache

ifeq ($(ARCH),x86_64)
KARCH := x86
CROSS := $(if $(filter x86_64,$(shell uname -m)),,x86_64-linux-gnu-)
else ifeq ($(ARCH),ppc64le)
KARCH := powerpc
CROSS := $(if $(filter ppc64le,$(shell uname -m)),,powerpc64le-linux-gnu-)
else
$(error ARCH must be x86_64 or ppc64le, not '$(ARCH)')
endif

ifeq ($(KERNEL),6.1)
SERIES_DIR := $(ARCH)
else ifeq ($(KERNEL),6.12)
SERIES_DIR := $(ARCH)-6.12
else
$(error KERNEL must be 6.1 or 6.12, not '$(KERNEL)')
endif

# KDIR=/lib/modules/$(uname -r)/build builds for a kernel of your own;
# without it, against Debian's headers fetched into .cache/ARCH/ (6.1) or
# .cache/ARCH-6.12/, built in build/ARCH/ or build/ARCH-6.12/.
# BUILD=/abs/dir builds elsewhere (for parallel builds).
ifeq ($(KDIR),)
BUILD ?= $(TOP)/build/$(SERIES_DIR)
KDIR_OF = $$(. $(CACHE)/$(SERIES_DIR)/env && echo "$$KDIR")
DEPS := deps
else
BUILD ?= $(TOP)/build/kdir-$(ARCH)
KDIR_OF = $(KDIR)
DEPS :=
endif

# No vmlinux ships with the headers, so there is no BTF to base modules on.
KBUILD = $(MAKE) -C $(KDIR_OF) ARCH=$(KARCH) CROSS_COMPILE=$(CROSS) W=1 \
	CONFIG_DEBUG_INFO_BTF_MODULES=

# The directories kbuild sees; each is mirrored into $(BUILD) as symlinks.
SOURCES := Kbuild core events arch-x86 arch-powerpc include samples tests/kmod tests/soak tests/harness bench

# optprobe.ko's own sources: what "make install" builds and the DKMS package ships
MODULE_SOURCES := Kbuild core events arch-x86 arch-powerpc include

.PHONY: all build deps unit check check-dkms check-ibt soak demo bench lint module install deb clean help

all: build

help:
	@echo "make [ARCH=x86_64|ppc64le] [KERNEL=6.1|6.12]  build optprobe.ko and every test and sample module"
	@echo "make demo [ARCH=...]           boot a VM and show optprobe at work"
	@echo "make bench [ARCH=...]          optprobe vs the kernel's kprobes: build/bench-ARCH.{json,svg,md}"
	@echo "make check [KERNEL=...]        host unit tests, harness tests, the QEMU matrix, bench smoke"
	@echo "make soak [KERNEL=...]         the kernel-wide soak, long form, every leg"
	@echo "make lint                      checkpatch --strict and sparse"
	@echo "make module M=/abs/dir         build an external probe module against optprobe"
	@echo "make deps                      fetch packages and kernels (run implicitly)"
	@echo "make KDIR=/lib/modules/\$$(uname -r)/build   build for your running kernel"
	@echo "make install KDIR=...          install optprobe.ko into the kernel's extra/, then depmod"
	@echo "make deb                       build/deb/optprobe-dkms_VERSION_all.deb (DKMS)"
	@echo "make check-dkms                the package built, installed by DKMS and booted, every arch and series"
	@echo "make check-ibt                 x86_64 6.12 under Bochs, whose CPU enforces IBT: optprobe loaded and probing"

deps:
	@$(TOP)/scripts/deps --kernel $(KERNEL) $(ARCH)

build: $(DEPS)
	@mkdir -p $(BUILD)
	@cd $(TOP) && for s in $(SOURCES); do \
		mkdir -p $(BUILD)/$$(dirname $$s); \
		cp -as --remove-destination $(TOP)/$$s $(BUILD)/$$(dirname $$s)/ || exit 1; \
	done
	@find $(BUILD) -xtype l -delete
	+$(KBUILD) M=$(BUILD) modules

module: build
	@test -n "$(M)" || { echo "usage: make module M=/abs/dir [ARCH=...]" >&2; exit 1; }
	+$(KBUILD) M=$(abspath $(M)) KBUILD_EXTRA_SYMBOLS=$(BUILD)/Module.symvers \
		KCPPFLAGS=-I$(TOP)/include modules

# optprobe.ko alone, built from a tree of its own sources and installed by
# kbuild into the kernel's extra/ (INSTALL_MOD_PATH=/dir: under /dir),
# then depmod, which kbuild skips without the kernel's System.map.  Signed
# if the kernel's build tree has its signing key, as a kernel built on
# this machine does; a distribution's does not (DKMS signs: make deb).
KRELEASE_OF = $$(sed -n 's/^\#define UTS_RELEASE "\(.*\)"/\1/p' $(KDIR_OF)/include/generated/utsrelease.h)

install:
	@test -n "$(KDIR)" || { echo "usage: make install KDIR=/lib/modules/VERSION/build" >&2; exit 1; }
	@rm -rf $(BUILD)-install && mkdir -p $(BUILD)-install
	@cd $(TOP) && cp -as $(addprefix $(TOP)/,$(MODULE_SOURCES)) $(BUILD)-install/
	+$(KBUILD) M=$(BUILD)-install modules
	+$(KBUILD) M=$(BUILD)-install INSTALL_MOD_DIR=extra \
		$(if $(wildcard $(KDIR)/certs/signing_key.pem),,CONFIG_MODULE_SIG_ALL=) modules_install
	depmod -a $(if $(INSTALL_MOD_PATH),-b $(INSTALL_MOD_PATH)) $(KRELEASE_OF)

deb:
	@$(TOP)/scripts/deb

check-dkms:
	@$(TOP)/scripts/deps --kernel 6.1 x86_64 ppc64le && $(TOP)/scripts/deps --kernel 6.12 x86_64 ppc64le
	@$(TOP)/tests/dkms/run $(TOP)/build/logs/dkms \
		x86_64:6.1 x86_64:6.12 ppc64le:6.1 ppc64le:6.12

# Bochs's tigerlake CPU enforces ENDBR64 (no QEMU Debian ships does under
# TCG): the 6.12 x86_64 module, built, then loaded and driven from the
# shell there (tests/ibt/bochs-run; ~2 minutes)
check-ibt:
	@$(MAKE) -s ARCH=x86_64 KERNEL=6.12 BUILD=$(TOP)/build/x86_64-6.12 build
	@IBT_BUILD=$(TOP)/build/x86_64-6.12 $(TOP)/tests/ibt/bochs-run $(TOP)/build/logs/ibt-bochs

unit:
	@$(MAKE) -s -C $(TOP)/tests/unit O=$(TOP)/build/unit run

# make check runs both series; KERNEL=6.1 or KERNEL=6.12 on the command
# line picks one
check:
	@$(TOP)/scripts/check $(if $(filter command line,$(origin KERNEL)),--kernel $(KERNEL))

# the kernel-wide soak's long form, every leg, single-threaded TCG
soak:
	@$(TOP)/scripts/soak --long $(if $(filter command line,$(origin KERNEL)),--kernel $(KERNEL))

demo: build
	@$(TOP)/scripts/demo $(ARCH) $(KERNEL)

bench: build
	@$(TOP)/scripts/bench --arch $(ARCH) --kernel $(KERNEL) --build $(BUILD)

lint:
	@$(TOP)/scripts/lint

clean:
	rm -rf $(TOP)/build
