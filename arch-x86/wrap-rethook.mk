# SPDX-License-Identifier: GPL-2.0
# Which object gives return probes their rethook (wrap-rethook.h):
# retprobe.o up to 6.6, retprobe-objpool.o for 6.7's objpool rethook.
optprobe-ret-x86 := $(if $(filter 1,$(shell [ $$(($(VERSION) * 100 + $(PATCHLEVEL))) -ge 607 ] && echo 1)),retprobe-objpool.o,retprobe.o)
