# TensorSuite build configuration: edit here, or override on the command
# line (make PREFIX=/opt/ts, make CC=clang, make SANITIZE=1).

VERSION = 0.1.0

PREFIX    = /usr/local
BINDIR    = $(PREFIX)/bin
LIBDIR    = $(PREFIX)/lib
INCDIR    = $(PREFIX)/include
MANDIR    = $(PREFIX)/share/man
DATADIR   = $(PREFIX)/share/tensorsuite
DOCDIR    = $(PREFIX)/share/doc/tensorsuite
PCDIR     = $(LIBDIR)/pkgconfig
BASHCOMPDIR = $(PREFIX)/share/bash-completion/completions
# Debian's zsh reads /usr/share/zsh/vendor-completions, Fedora's
# /usr/share/zsh/site-functions (the default's place under /usr).
ZSHCOMPDIR  = $(PREFIX)/share/zsh/site-functions
FISHCOMPDIR = $(PREFIX)/share/fish/vendor_completions.d

CC       ?= cc
AR       ?= ar
LD       ?= ld
OBJCOPY  ?= objcopy
PKG_CONFIG ?= pkg-config
OPT      ?= -O2
CFLAGS   ?= $(OPT) -g
WARN      = -std=c11 -Wall -Wextra -pedantic -Wshadow -Wstrict-prototypes \
            -Wmissing-prototypes -Wno-unused-parameter
CPPFLAGS += -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE
DEPLIBS   = jansson libzstd zlib
# Built against, loaded when first needed (dlopen, by the SONAME
# scripts/soname.sh finds): libhdf5 for .bsp.h5 files, libarchive for
# archives, compressed streams and zips, libcrypto for SHA-256 digests.
# Debian's pkg-config names its serial build so (hdf5-serial).
DLLIBS    = hdf5 libarchive libcrypto
LDLIBS   += -lm -lpthread -ldl

ifeq ($(SANITIZE),1)
CFLAGS  += -fsanitize=address,undefined -fno-omit-frame-pointer \
           -fno-sanitize-recover=undefined
LDFLAGS += -fsanitize=address,undefined
BUILD    = build-san
else
BUILD   ?= build
endif
