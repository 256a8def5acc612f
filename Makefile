# npxc: build, test, demo. GNU make. Everything built goes under $(B).
#   make            build build/npxc and build/npxcmp
#   make check      install missing tools, run the suite, then again under ASan+UBSan
#   make demo       compile and run the autoencoder sample end to end
CC      ?= cc
B       ?= build
WARN     = -Wall -Wextra -Wno-unused-parameter
CFLAGS  ?= -O2 -g
ALL_CFLAGS = -std=c11 -D_POSIX_C_SOURCE=200809L $(WARN) $(CFLAGS) -I$(B) -I.
LDLIBS   = -lm

NPXC_SRCS = $(wildcard common/*.c parser/*.c ir/*.c codegen/*.c driver/*.c)
# The runtime, in the order it is pasted into generated programs.
RT_HDRS   = runtime/npx_rt.h runtime/npx_math.h
RT_SRCS   = $(sort $(wildcard runtime/*.c))
NPXC_OBJS = $(NPXC_SRCS:%.c=$(B)/%.o) $(B)/lexer/lexer.o $(B)/parser/parser.o $(B)/rt_embed.o \
            $(B)/cuda_embed.o $(B)/device_embed.o
RT_OBJS   = $(RT_SRCS:%.c=$(B)/%.o)

.PHONY: all check check-fast check-san check-gpu bench bench-gpu survey fuzz demo deps clean
all: $(B)/npxc $(B)/npxcmp

$(B)/npxc: $(NPXC_OBJS)
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDLIBS)

$(B)/npxcmp: $(B)/tools/npxcmp.o $(RT_OBJS)
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDLIBS)

$(B)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

$(B)/parser/parser.c $(B)/parser/parser.h: parser/parser.y
	@mkdir -p $(B)/parser
	bison -Wall -Werror --defines=$(B)/parser/parser.h -o $(B)/parser/parser.c $<

$(B)/lexer/lexer.c $(B)/lexer/lexer.h: lexer/lexer.l
	@mkdir -p $(B)/lexer
	flex --header-file=$(B)/lexer/lexer.h -o $(B)/lexer/lexer.c $<

# Generated scanner/parser: their own include paths, flex's code needs -Wno-sign-compare.
$(B)/lexer/lexer.o: $(B)/lexer/lexer.c $(B)/parser/parser.h
	$(CC) $(ALL_CFLAGS) -Wno-sign-compare -Wno-unused-function -I$(B)/parser -Iparser -c -o $@ $<
$(B)/parser/parser.o: $(B)/parser/parser.c $(B)/lexer/lexer.h
	$(CC) $(ALL_CFLAGS) -I$(B)/lexer -Iparser -c -o $@ $<
$(NPXC_SRCS:%.c=$(B)/%.o): $(B)/parser/parser.h $(B)/lexer/lexer.h

# The runtime's text, embedded into npxc as C strings.
$(B)/tools/embed: tools/embed.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $<
$(B)/rt_embed.c: $(B)/tools/embed $(RT_HDRS) $(RT_SRCS)
	$(B)/tools/embed $(RT_HDRS) $(RT_SRCS) > $@.tmp && mv $@.tmp $@
$(B)/cuda_embed.c: $(B)/tools/embed runtime/cuda/npx_cuda.h
	$(B)/tools/embed --name npx_cuda runtime/cuda/npx_cuda.h > $@.tmp && mv $@.tmp $@
$(B)/device_embed.c: $(B)/tools/embed runtime/cuda/npx_device.h
	$(B)/tools/embed --name npx_device runtime/cuda/npx_device.h > $@.tmp && mv $@.tmp $@
$(B)/%_embed.o: $(B)/%_embed.c
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

# ---- tests ----------------------------------------------------------------
# -g1: line tables, all a sanitizer's report needs for file:line in every
# frame, inlined ones included; full -g made each emulated CUDA build of the
# round a third slower (14.6 s against 9.7 s for broadcasting.npx).
SAN_FLAGS = -O1 -g1 -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer

deps:
	@tools/install-deps.sh

check: deps
	$(MAKE) check-fast
	$(MAKE) check-san

check-fast: all
	NPX_BUILD=$(abspath $(B)) tools/run-tests.sh

# The sanitizer round also builds the programs with NPX_PARALLEL_MIN=0: the
# test inputs are small, and would take only the one-thread copy of each loop.
check-san:
	$(MAKE) B=build-san CFLAGS="$(SAN_FLAGS)" all
	NPX_BUILD=$(abspath build-san) NPX_SAN=1 CFLAGS="$(SAN_FLAGS) -DNPX_PARALLEL_MIN=0" tools/run-tests.sh

demo: deps
	@$(MAKE) --no-print-directory all
	@tools/demo.sh $(B)

# On a machine with an NVIDIA GPU: every program built by nvcc, run, and
# compared with the C program; compute-sanitizer; GPU benchmarks.
check-gpu: all
	tools/check-gpu.sh $(B)

bench: all
	@tools/install-deps.sh --bench
	python3 bench/run.py --build $(B)/bench --npxc $(B)/npxc --npxcmp $(B)/npxcmp $(BENCH_ARGS)

# Every test program at about a million elements beside NumPy, slowest first:
# where npxc is slow that the benchmarks do not show.
survey: all
	python3 bench/survey.py --build $(B)/survey --npxc $(B)/npxc --npxcmp $(B)/npxcmp $(SURVEY_ARGS)

# A differential fuzzer: random valid programs, each compiled (C, -O0, every
# 4th one CUDA emulated) and run beside NumPy; it prints a line per failure.
# Not part of check: its worth is the programs nobody wrote. For example
# make fuzz FUZZ_ARGS='--seed 7 --count 200 --keep /tmp/fails'
fuzz: all
	python3 tools/fuzz_programs.py --build $(abspath $(B)) $(FUZZ_ARGS)

# The benchmark programs on an NVIDIA GPU, beside the copy bandwidth and CuPy.
bench-gpu: all
	bench/gpu.sh $(B)

clean:
	rm -rf build build-san

-include $(shell find $(B) -name '*.d' 2>/dev/null)
