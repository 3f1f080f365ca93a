# Builds the interposer and our MPI programs with one MPI compiler wrapper.
#   make MPICC=/path/to/mpicc            -> build/
#   make MPICC=... PREFIX=.venv install  -> $(PREFIX)/lib/iotuner, $(PREFIX)/libexec/iotuner
# The interposer is two libraries, installed side by side (interposer/src/entries.h):
# libiotuner.so, the stub LD_PRELOAD names (no link to MPI), and libiotuner-core.so, which
# the stub opens in processes that call MPI with a mode set.
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

STUB_SRC := interposer/stub/stub.c
STUB_HDR := interposer/src/entries.h interposer/src/mpi_library.h

all: $(BUILD)/libiotuner.so $(BUILD)/libiotuner-core.so $(PROGRAMS) $(BENCH_PROGRAMS) $(BUILD)/table_check \
	$(BUILD)/number_check

# The MPI compiler the objects in $(BUILD) were built with: rewritten only when MPICC
# changes, so `make MPICC=<another mpicc>` rebuilds everything instead of installing a
# library built against the previous MPI (file times cannot tell).
MPI_STAMP := $(BUILD)/mpicc.stamp
$(MPI_STAMP): FORCE
	@mkdir -p $(@D)
	@echo '$(MPICC)' | cmp -s - $@ || echo '$(MPICC)' > $@
.PHONY: FORCE

# The library truncates over-long names on purpose (bounded buffers, checked
# where it matters), so gcc's guesses about snprintf truncation are off.
$(BUILD)/libiotuner-core.so: $(LIB_SRC) $(LIB_HDR) $(MPI_STAMP)
	@mkdir -p $(@D)
	$(MPICC) $(CFLAGS) $(WARN) -Wno-format-truncation -fPIC -shared -fvisibility=hidden -Iformats -o $@ $(LIB_SRC) -ldl -lpthread

# The stub is compiled with $(MPICC) (mpi.h: the routines' types) and linked with $(CC),
# so that no MPI library becomes its dependency (an MPI compiler wrapper adds -lmpi). Its
# target builds the core too: the one is no use without the other.
$(BUILD)/stub.o: $(STUB_SRC) $(STUB_HDR) $(MPI_STAMP)
	@mkdir -p $(@D)
	$(MPICC) $(CFLAGS) $(WARN) -fPIC -fvisibility=hidden -Iinterposer/src -c -o $@ $(STUB_SRC)

$(BUILD)/libiotuner.so: $(BUILD)/stub.o $(BUILD)/libiotuner-core.so
	$(CC) $(CFLAGS) -shared -o $@ $(BUILD)/stub.o -ldl -lpthread

$(BUILD)/table_check: interposer/tools/table_check.c $(READER_SRC) $(LIB_HDR)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(WARN) -Iformats -Iinterposer/src -o $@ interposer/tools/table_check.c $(READER_SRC)

# The trace writer's numbers against printf's (tests/unit/test_trace_numbers.py).
$(BUILD)/number_check: interposer/tools/number_check.c $(READER_SRC) $(LIB_HDR)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(WARN) -Iformats -Iinterposer/src -o $@ interposer/tools/number_check.c $(READER_SRC)

# programs/args.h: the option parsers the programs and benchmark programs share. A program
# finds it next to its source ("args.h"), so each still builds alone with mpicc; bench/
# sources need -Iprograms.
ARGS_HDR := programs/args.h

$(BUILD)/programs/%: programs/%.c $(ARGS_HDR) $(MPI_STAMP)
	@mkdir -p $(@D)
	$(MPICC) $(CFLAGS) $(WARN) -o $@ $<

$(BUILD)/bench/%: bench/%.c $(ARGS_HDR) $(MPI_STAMP)
	@mkdir -p $(@D)
	$(MPICC) $(CFLAGS) $(WARN) -Iprograms -o $@ $<

install: all
	mkdir -p $(PREFIX)/lib/iotuner $(PREFIX)/libexec/iotuner
	# install, not cp: it writes a new file, so a job still running the old library or
	# program keeps its copy instead of having it overwritten under it.
	install -m 755 $(BUILD)/libiotuner.so $(BUILD)/libiotuner-core.so $(PREFIX)/lib/iotuner/
	install -m 755 $(PROGRAMS) $(BENCH_PROGRAMS) $(BUILD)/table_check $(BUILD)/number_check \
		$(PREFIX)/libexec/iotuner/

# Sanitizers (`make sanitize`): the interposer and the checker built with AddressSanitizer
# and UndefinedBehaviorSanitizer (gcc through $(MPICC)). The library is loaded into
# programs that are not instrumented, so the ASan runtime must come first in LD_PRELOAD:
#   LD_PRELOAD=$$(gcc -print-file-name=libasan.so):build/asan/libiotuner.so
# (the tests do this with IOTUNER_TEST_LIBRARY and IOTUNER_TEST_PRELOAD).
SAN_FLAGS := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer

sanitize: $(BUILD)/asan/libiotuner.so $(BUILD)/asan/libiotuner-core.so $(BUILD)/asan/table_check \
	$(BUILD)/asan/number_check

$(BUILD)/asan/libiotuner-core.so: $(LIB_SRC) $(LIB_HDR)
	@mkdir -p $(@D)
	$(MPICC) $(SAN_FLAGS) $(WARN) -Wno-format-truncation -fPIC -shared -fvisibility=hidden -Iformats -o $@ $(LIB_SRC) -ldl -lpthread

$(BUILD)/asan/stub.o: $(STUB_SRC) $(STUB_HDR)
	@mkdir -p $(@D)
	$(MPICC) $(SAN_FLAGS) $(WARN) -fPIC -fvisibility=hidden -Iinterposer/src -c -o $@ $(STUB_SRC)

$(BUILD)/asan/libiotuner.so: $(BUILD)/asan/stub.o $(BUILD)/asan/libiotuner-core.so
	$(CC) $(SAN_FLAGS) -shared -o $@ $(BUILD)/asan/stub.o -ldl -lpthread

$(BUILD)/asan/table_check: interposer/tools/table_check.c $(READER_SRC) $(LIB_HDR)
	@mkdir -p $(@D)
	$(CC) $(SAN_FLAGS) $(WARN) -Iformats -Iinterposer/src -o $@ interposer/tools/table_check.c $(READER_SRC)

$(BUILD)/asan/number_check: interposer/tools/number_check.c $(READER_SRC) $(LIB_HDR)
	@mkdir -p $(@D)
	$(CC) $(SAN_FLAGS) $(WARN) -Iformats -Iinterposer/src -o $@ interposer/tools/number_check.c $(READER_SRC)

# Fuzzing (`make fuzz`, `make fuzz-run FUZZ_SECONDS=60`): the reader under libFuzzer, with
# clang. fuzz-run seeds a temporary corpus with tests/data/tables (committed and generated
# tables, see generate.py --fuzz-seeds), so the repository is not modified; an input that
# crashes is kept as $(BUILD)/fuzz/crash-* (add it to tests/data/tables once it is fixed).
CLANG ?= clang
FUZZ_FLAGS := -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
FUZZ_SECONDS ?= 60
FUZZ_MAX_LEN ?= 80000
PYTHON ?= $(if $(wildcard .venv/bin/python),.venv/bin/python,python3)

fuzz: $(BUILD)/fuzz/table_fuzz

$(BUILD)/fuzz/table_fuzz: interposer/tools/table_fuzz.c $(READER_SRC) $(LIB_HDR)
	@mkdir -p $(@D)
	$(CLANG) $(FUZZ_FLAGS) $(WARN) -Iformats -Iinterposer/src -o $@ interposer/tools/table_fuzz.c $(READER_SRC)

fuzz-run: $(BUILD)/fuzz/table_fuzz
	@set -e; work=$$(mktemp -d "$${TMPDIR:-/tmp}/iotuner-fuzz.XXXXXX"); trap 'rm -rf "$$work"' EXIT; \
	mkdir "$$work/corpus"; $(PYTHON) tests/data/tables/generate.py --fuzz-seeds "$$work/seeds" >/dev/null; \
	echo "fuzz: $(BUILD)/fuzz/table_fuzz for $(FUZZ_SECONDS) s, $$(ls "$$work/seeds" | wc -l) seeds"; \
	status=0; $(BUILD)/fuzz/table_fuzz -max_total_time=$(FUZZ_SECONDS) -max_len=$(FUZZ_MAX_LEN) \
		-timeout=30 -print_final_stats=1 -artifact_prefix=$(BUILD)/fuzz/ \
		"$$work/corpus" "$$work/seeds" >"$$work/log" 2>&1 || status=$$?; \
	if [ $$status != 0 ]; then tail -n 60 "$$work/log"; fi; \
	runs=$$(sed -n 's/^stat::number_of_executed_units: *//p' "$$work/log"); \
	echo "fuzz: $${runs:-?} executions in $(FUZZ_SECONDS) s, exit status $$status"; \
	exit $$status

format:
	clang-format -i interposer/src/*.c interposer/src/*.h interposer/stub/*.c interposer/tools/*.c programs/*.c programs/*.h bench/*.c

clean:
	rm -rf $(BUILD)

.PHONY: all install format clean sanitize fuzz fuzz-run
