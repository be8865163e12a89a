# twill: build, test, fuzz, bench, install.
#
#   make                 libtwill.a and bin/twill (optimized, -Werror)
#   make check           every Check suite under tests/ (test_*.c), against
#                        the optimized build and then the debug build
#   make debug           the debug build (build-debug/: -O1, asserts on);
#                        `make debug check` runs the suites against it only
#   make check SAN=1     the suites under AddressSanitizer + UBSan (build-san/,
#                        asserts on)
#   make valgrind        the suites under valgrind --leak-check=full
#   make fuzz            every libFuzzer target in tests/fuzz for FUZZ_TIME s
#   make bench           the benchmark programs in bench/ (peers installed there)
#   make install PREFIX=/usr/local  (also the man page, share/man/man1/twill.1)
#   make clean
#
# Sources are found by wildcard: a new file in a module folder, a new
# tests/test_NAME.c or tests/fuzz/fuzz_NAME.c needs no change here.

CC      ?= gcc
PREFIX  ?= /usr/local
VERSION := 0.1.0

# Asserts state the invariants of the hot loops (the CDCL core, the
# simplex); they are compiled in by the debug and sanitizer builds only.
SAN ?= 0
ifneq ($(filter debug,$(MAKECMDGOALS)),)
DEBUG := 1
endif
DEBUG ?= 0
ifeq ($(SAN),1)
BUILD   ?= build-san
OPT     := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer \
           -fno-sanitize-recover=all
SANLD   := -fsanitize=address,undefined
else ifeq ($(DEBUG),1)
BUILD   ?= build-debug
OPT     ?= -O1 -g
SANLD   :=
else
BUILD   ?= build
OPT     ?= -O2 -g -DNDEBUG
SANLD   :=
endif

WARN    := -std=c11 -Wall -Wextra -Werror -Wshadow -Wpointer-arith \
           -Wstrict-prototypes -Wmissing-prototypes -Wvla
CPPFLAGS += -Iinclude -I$(BUILD)/gen -D_POSIX_C_SOURCE=200809L \
           -DTWILL_VERSION=\"$(VERSION)\"
CFLAGS  += $(WARN) $(OPT) -pthread
LDLIBS  += -pthread -lm

CHECK_CFLAGS := $(shell pkg-config --cflags check 2>/dev/null)
CHECK_LIBS   := $(shell pkg-config --libs check 2>/dev/null || echo -lcheck -lsubunit -lrt -lm)

# The library is every .c under the module folders (subfolders included)
# except the program, core/cli/, which links against it.
MODULES  := graph arch sat ilp core codegen
ALL_SRC  := $(sort $(shell find $(MODULES) -name '*.c'))
PROG_SRC := $(filter core/cli/%,$(ALL_SRC))
LIB_SRC  := $(filter-out core/cli/%,$(ALL_SRC))
GEN_SRC  := $(BUILD)/gen/builtin_data.c
GEN_CUDA := $(BUILD)/gen/cuda_text.c
LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/%.o) $(BUILD)/gen/builtin_data.o \
            $(BUILD)/gen/cuda_text.o
PROG_OBJ := $(PROG_SRC:%.c=$(BUILD)/%.o)
LIB      := $(BUILD)/libtwill.a
BIN      := $(BUILD)/bin/twill

TEST_SRC := $(wildcard tests/test_*.c)
TEST_BIN := $(TEST_SRC:tests/%.c=$(BUILD)/tests/%)
TEST_COMMON := $(filter-out $(TEST_SRC),$(wildcard tests/*.c))
TEST_COMMON_OBJ := $(TEST_COMMON:%.c=$(BUILD)/%.o)

# The suites' instances the tests read: stored gzip-compressed under
# tests/data/suites, unpacked into $(BUILD)/data/suites (gunzip is in every
# Debian base system); other files there are copied as they are.
DATA_SRC := $(shell find tests/data/suites -type f 2>/dev/null)
DATA_OUT := $(patsubst tests/data/%,$(BUILD)/data/%,$(DATA_SRC:.gz=))

FUZZ_SRC := $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_TIME ?= 60
FUZZ_DIR := build-fuzz

KERNELS  := $(sort $(wildcard kernels/*.twill))
CUDA_TEXT := $(sort $(wildcard codegen/*.cuh))
ARCHS    := $(sort $(wildcard arch/*.arch))

.PHONY: all debug check check-suites valgrind fuzz bench install clean lint data
.SECONDARY:
all: $(LIB) $(BIN) bin/twill

bin/twill: $(BIN)
ifeq ($(BUILD),build)
	@mkdir -p bin
	cp $(BIN) bin/twill
else
	@true
endif

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -MMD -MP -c $< -o $@

# Built-in kernels and machines are compiled into the library so that
# `twill bounds fa3-fwd-hopper` works from any directory.
$(GEN_SRC): $(KERNELS) $(ARCHS) kernels/embed.sh
	@mkdir -p $(dir $@)
	sh kernels/embed.sh $@ $(KERNELS) -- $(ARCHS)

$(BUILD)/gen/builtin_data.o: $(GEN_SRC)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

# The CUDA tile ops and host harness that complete kernels inline.
$(GEN_CUDA): $(CUDA_TEXT) codegen/embed_cuda.sh
	@mkdir -p $(dir $@)
	sh codegen/embed_cuda.sh $@ $(CUDA_TEXT)

$(BUILD)/gen/cuda_text.o: $(GEN_CUDA)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

$(LIB): $(LIB_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@
	ar rcs $@ $^

$(BIN): $(PROG_OBJ) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(SANLD) $^ -o $@ $(LDLIBS)

$(BUILD)/data/%: tests/data/%.gz
	@mkdir -p $(dir $@)
	@gunzip -c $< > $@.tmp && mv $@.tmp $@

$(BUILD)/data/%: tests/data/%
	@mkdir -p $(dir $@)
	@cp $< $@

data: $(DATA_OUT)

$(BUILD)/tests/%.o: tests/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CHECK_CFLAGS) $(CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/tests/test_%: $(BUILD)/tests/test_%.o $(TEST_COMMON_OBJ) $(LIB)
	$(CC) $(CFLAGS) $(SANLD) $^ -o $@ $(CHECK_LIBS) $(LDLIBS)

debug: all

# Sanitized code runs about three times slower: its suites get three times
# the time of every Check timeout (a shared machine needed it for the GauS
# legalization sweep).
ifeq ($(SAN),1)
CK_MULT := 3
else
CK_MULT := 1
endif

# Each suite runs with the path of the program and of the unpacked test data
# in its environment; a failing suite fails the target, after all have run.
# A plain `make check` then runs the same suites against the debug build.
check-suites: $(TEST_BIN) $(BIN) $(DATA_OUT)
	@fail=0; sh tests/layering.sh || fail=1; sh tests/symbols.sh $(LIB) || fail=1; \
	TWILL_BIN=$(abspath $(BIN)) sh tests/tutorial.sh || fail=1; \
	TWILL_BIN=$(abspath $(BIN)) sh tests/tutorial.sh docs/formats.md 2 || fail=1; \
	TWILL_BIN=$(abspath $(BIN)) sh tests/manpage.sh || fail=1; \
	for t in $(TEST_BIN); do \
	  CK_DEFAULT_TIMEOUT=$${CK_DEFAULT_TIMEOUT:-120} \
	  CK_TIMEOUT_MULTIPLIER=$${CK_TIMEOUT_MULTIPLIER:-$(CK_MULT)} \
	  TWILL_BIN=$(abspath $(BIN)) TWILL_SRC=$(CURDIR) \
	  TWILL_DATA=$(abspath $(BUILD)/data) \
	  $$t || fail=1; done; \
	if [ $$fail = 0 ]; then echo "make check ($(BUILD)): all suites passed"; \
	else echo "make check ($(BUILD)): FAILED"; exit 1; fi

check: check-suites
ifeq ($(SAN)$(DEBUG),00)
	@$(MAKE) --no-print-directory DEBUG=1 check-suites
endif

valgrind: $(TEST_BIN) $(BIN) $(DATA_OUT)
	@fail=0; for t in $(TEST_BIN); do \
	  echo "valgrind $$t"; \
	  CK_FORK=no CK_DEFAULT_TIMEOUT=$${CK_DEFAULT_TIMEOUT:-1200} \
	  TWILL_VALGRIND=1 TWILL_BIN=$(abspath $(BIN)) TWILL_SRC=$(CURDIR) \
	  TWILL_DATA=$(abspath $(BUILD)/data) \
	  valgrind -q --leak-check=full --show-leak-kinds=definite,indirect,possible \
	    --errors-for-leak-kinds=definite,indirect,possible --error-exitcode=99 \
	    $$t || fail=1; done; \
	if [ $$fail = 0 ]; then echo "make valgrind: clean"; \
	else echo "make valgrind: FAILED"; exit 1; fi

# libFuzzer targets: built with clang against the library sources, each run
# for FUZZ_TIME seconds from a seed corpus under tests/data.
fuzz:
	@mkdir -p $(FUZZ_DIR)/gen
	sh kernels/embed.sh $(FUZZ_DIR)/gen/builtin_data.c $(KERNELS) -- $(ARCHS)
	sh codegen/embed_cuda.sh $(FUZZ_DIR)/gen/cuda_text.c $(CUDA_TEXT)
	@set -e; for f in $(FUZZ_SRC); do \
	  n=$$(basename $$f .c); \
	  echo "building $$n"; \
	  clang -std=c11 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -Iinclude \
	    -I$(FUZZ_DIR)/gen -D_POSIX_C_SOURCE=200809L -DTWILL_VERSION=\"$(VERSION)\" \
	    $$f $(LIB_SRC) $(FUZZ_DIR)/gen/builtin_data.c $(FUZZ_DIR)/gen/cuda_text.c \
	    -o $(FUZZ_DIR)/$$n -pthread -lm; \
	done
	@fail=0; for f in $(FUZZ_SRC); do \
	  n=$$(basename $$f .c); mkdir -p $(FUZZ_DIR)/corpus-$$n; \
	  seeds=tests/fuzz/seeds/$${n#fuzz_}; \
	  echo "fuzzing $$n for $(FUZZ_TIME) s"; \
	  $(FUZZ_DIR)/$$n -max_total_time=$(FUZZ_TIME) -print_final_stats=1 \
	    -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
	    $(FUZZ_DIR)/corpus-$$n $$( [ -d $$seeds ] && echo $$seeds ) \
	    > $(FUZZ_DIR)/$$n.log 2>&1 || fail=1; \
	  grep -E 'stat::number_of_executed_units|ERROR|SUMMARY|Done' $(FUZZ_DIR)/$$n.log; \
	done; \
	if [ $$fail = 0 ]; then echo "make fuzz: clean"; \
	else echo "make fuzz: FAILED (a crash, leak or timeout: see $(FUZZ_DIR)/*.log)"; exit 1; fi

bench: all
	sh bench/run.sh

install: all
	install -d $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/bin \
	  $(DESTDIR)$(PREFIX)/include/twill $(DESTDIR)$(PREFIX)/lib/pkgconfig \
	  $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 644 $(LIB) $(DESTDIR)$(PREFIX)/lib/libtwill.a
	install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/twill
	install -m 644 include/twill/*.h $(DESTDIR)$(PREFIX)/include/twill/
	install -m 644 include/twill.h $(DESTDIR)$(PREFIX)/include/twill.h
	install -m 644 docs/twill.1 $(DESTDIR)$(PREFIX)/share/man/man1/twill.1
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|$(VERSION)|g' twill.pc.in \
	  > $(DESTDIR)$(PREFIX)/lib/pkgconfig/twill.pc

lint:
	cppcheck --quiet --error-exitcode=1 --std=c11 -Iinclude \
	  --suppress=missingIncludeSystem --inline-suppr $(MODULES)

clean:
	rm -rf build build-san build-debug build-fuzz bin

-include $(LIB_OBJ:.o=.d) $(PROG_OBJ:.o=.d) $(TEST_BIN:=.d) $(TEST_COMMON_OBJ:.o=.d)
