# Builds the harnesses with libFuzzer and the sanitizers; fuzz/run calls
#   make -f fuzz/build.mk -C BUILD SRC=... TOP=... EXTRA_CFLAGS=... LIBS=... TARGETS
# The library's sources are compiled here directly, instrumented, not
# taken from lib/libtells.a (which the normal compiler built).
CC = clang
CXX = clang++
SANITIZE = -fsanitize=address,undefined -fno-sanitize-recover=all
FLAGS = -g -O1 -fno-omit-frame-pointer $(SANITIZE) -fsanitize=fuzzer-no-link \
	-DHAVE_CONFIG_H -I$(TOP) -I$(TOP)/lib -I$(SRC)/lib -I$(SRC)/fuzz
CFLAGS = $(FLAGS) $(EXTRA_CFLAGS)
CXXFLAGS = $(FLAGS) -std=c++17 $(EXTRA_CXXFLAGS)

LIB_C = $(wildcard $(SRC)/lib/*/*.c)
LIB_CC = $(wildcard $(SRC)/lib/*/*.cc)
LIB_OBJ = $(patsubst $(SRC)/%.c,obj/%.o,$(LIB_C)) $(patsubst $(SRC)/%.cc,obj/%.o,$(LIB_CC))

obj/%.o: $(SRC)/%.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -MMD -MP -c $< -o $@

obj/%.o: $(SRC)/%.cc
	@mkdir -p $(@D)
	$(CXX) $(CXXFLAGS) -MMD -MP -c $< -o $@

bin/fuzz-%: obj/fuzz/fuzz-%.o obj/fuzz/fuzz.o $(LIB_OBJ)
	@mkdir -p $(@D)
	$(CXX) $(SANITIZE) -fsanitize=fuzzer $^ $(LIBS) -o $@

.SECONDARY:
-include $(LIB_OBJ:.o=.d) $(wildcard obj/fuzz/*.d)
