# Builds the interposer and our MPI programs with one MPI compiler wrapper.
#   make MPICC=/path/to/mpicc            -> build/
#   make MPICC=... PREFIX=.venv install  -> $(PREFIX)/lib/iotuner, $(PREFIX)/libexec/iotuner
# setup.sh calls this; nothing here needs root.

MPICC ?= mpicc
PREFIX ?= .venv
BUILD := build
CFLAGS ?= -O2 -g
WARN := -Wall -Wextra -Werror -std=c11 -D_GNU_SOURCE

LIB_SRC := $(wildcard interposer/src/*.c)
LIB_HDR := $(wildcard interposer/src/*.h) $(wildcard formats/*.def)
PROGRAMS := $(patsubst programs/%.c,$(BUILD)/programs/%,$(wildcard programs/*.c))
BENCH_PROGRAMS := $(patsubst bench/%.c,$(BUILD)/bench/%,$(wildcard bench/*.c))

# The table reader without MPI (interposer/src/reader.h): the checker the tests compare
# with the Python reader, and the fuzz target.
READER_SRC := interposer/src/alloc.c interposer/src/kv.c interposer/src/json.c interposer/src/table.c
CC ?= cc

all: $(BUILD)/libiotuner.so $(PROGRAMS) $(BENCH_PROGRAMS) $(BUILD)/table_check

# The library truncates over-long names on purpose (bounded buffers, checked
# where it matters), so gcc's guesses about snprintf truncation are off.
$(BUILD)/libiotuner.so: $(LIB_SRC) $(LIB_HDR)
	@mkdir -p $(@D)
	$(MPICC) $(CFLAGS) $(WARN) -Wno-format-truncation -fPIC -shared -fvisibility=hidden -Iformats -o $@ $(LIB_SRC) -ldl -lpthread

$(BUILD)/table_check: interposer/tools/table_check.c $(READER_SRC) $(LIB_HDR)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(WARN) -Iformats -Iinterposer/src -o $@ interposer/tools/table_check.c $(READER_SRC)

$(BUILD)/programs/%: programs/%.c
	@mkdir -p $(@D)
	$(MPICC) $(CFLAGS) $(WARN) -o $@ $<

$(BUILD)/bench/%: bench/%.c
	@mkdir -p $(@D)
	$(MPICC) $(CFLAGS) $(WARN) -o $@ $<

install: all
	mkdir -p $(PREFIX)/lib/iotuner $(PREFIX)/libexec/iotuner
	# install, not cp: it writes a new file, so a job still running the old library or
	# program keeps its copy instead of having it overwritten under it.
	install -m 755 $(BUILD)/libiotuner.so $(PREFIX)/lib/iotuner/
	install -m 755 $(PROGRAMS) $(BENCH_PROGRAMS) $(BUILD)/table_check $(PREFIX)/libexec/iotuner/

format:
	clang-format -i interposer/src/*.c interposer/src/*.h interposer/tools/*.c programs/*.c bench/*.c

clean:
	rm -rf $(BUILD)

.PHONY: all install format clean
