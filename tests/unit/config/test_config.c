/*
 * Unit tests of controller/config: what scalars mean, the YAML tree's marks
 * and refusals, and board and suite files good and bad, each bad one with the
 * exact message it must give (file:line:col: what; expected form); and what
 * run/board_target.h builds from a board (its counter and endpoint).
 */
#include <string.h>

#include "check.h"
#include "config/board.h"
#include "yaml/scalar.h"
#include "config/suite.h"
#include "yaml/yaml_tree.h"
#include "rack/board_identity.h"
#include "run/board_target.h"

static void test_scalars(void)
{
	static const struct {
		const char *text;
		bool suffix;
		bool ok;
		uint64_t value;
	} uints[] = {
		{"0", false, true, 0},
		{"100", false, true, 100},
		{"0x40000024", false, true, 0x40000024},
		{"0X1f", false, true, 31},
		{"18446744073709551615", false, true, UINT64_MAX},
		{"18446744073709551616", false, false, 0},
		{"8K", true, true, 8192},
		{"1M", true, true, 1048576},
		{"2G", true, true, 2147483648ULL},
		{"8K", false, false, 0},
		{"8k", true, false, 0},
		{"8KB", true, false, 0},
		{"-1", false, false, 0},
		{"+1", false, false, 0},
		{"1.5", false, false, 0},
		{"", false, false, 0},
		{"0x", false, false, 0},
		{" 1", false, false, 0},
		{"1 ", false, false, 0},
		{"0xFFFFFFFFFFFFFFFFF", false, false, 0},
	};
	for (size_t i = 0; i < sizeof(uints) / sizeof(uints[0]); i++) {
		uint64_t v = 12345;
		bool ok = br_scalar_uint(uints[i].text, uints[i].suffix, &v);
		CHECK_MSG(ok == uints[i].ok, "uint '%s'", uints[i].text);
		if (ok && uints[i].ok)
			CHECK_MSG(v == uints[i].value, "uint '%s' = %llu", uints[i].text,
				  (unsigned long long)v);
	}
	static const struct {
		const char *text;
		bool ok;
		double value;
	} numbers[] = {
		{"5", true, 5.0},      {"-2.5", true, -2.5},  {"1e3", true, 1000.0},
		{"0.125", true, 0.125}, {"inf", false, 0},    {"nan", false, 0},
		{"0x10", false, 0},    {"1e999", false, 0},   {"5%", false, 0},
		{"", false, 0},        {".5", false, 0},      {"1.5.2", false, 0},
	};
	for (size_t i = 0; i < sizeof(numbers) / sizeof(numbers[0]); i++) {
		double v = 0;
		bool ok = br_scalar_number(numbers[i].text, &v);
		CHECK_MSG(ok == numbers[i].ok, "number '%s'", numbers[i].text);
		if (ok && numbers[i].ok)
			CHECK_MSG(v == numbers[i].value, "number '%s'", numbers[i].text);
	}
	bool b = false;
	CHECK(br_scalar_bool("true", &b) && b);
	CHECK(br_scalar_bool("false", &b) && !b);
	CHECK(!br_scalar_bool("yes", &b));
	CHECK(!br_scalar_bool("True", &b));
}

static br_status_t parse(const char *text, br_yaml_doc_t *doc, br_error_t *err)
{
	return br_yaml_parse("t.yaml", (const unsigned char *)text, strlen(text), doc, err);
}

static void test_tree(void)
{
	br_yaml_doc_t doc;
	br_error_t err;
	const char *text = "a: 1\nlist:\n  - x\n  - 'y'\nmap: {k: v}\n";
	CHECK(parse(text, &doc, &err) == BR_OK);
	const br_yaml_node_t *root = doc.root;
	CHECK(root != NULL && root->kind == BR_YAML_MAPPING && root->count == 3);
	const br_yaml_node_t *list = br_yaml_map_get(root, "list");
	CHECK(list != NULL && list->kind == BR_YAML_SEQUENCE && list->count == 2);
	CHECK(list != NULL && list->children[0]->mark.line == 3 &&
	      list->children[0]->mark.column == 5);
	CHECK(list != NULL && list->children[0]->plain && !list->children[1]->plain);
	const br_yaml_node_t *map = br_yaml_map_get(root, "map");
	CHECK(map != NULL && map->mark.line == 5 && map->mark.column == 6);
	CHECK(br_yaml_map_get(root, "nope") == NULL);
	br_yaml_doc_free(&doc);

	/* A UTF-8 byte order mark is skipped, not read as text. */
	CHECK(parse("\xEF\xBB\xBF" "a: 1\n", &doc, &err) == BR_OK &&
	      br_yaml_map_get(doc.root, "a") != NULL);
	br_yaml_doc_free(&doc);

	/* JSON is flow YAML: what results/ reads. */
	CHECK(parse("{\"a\": [1, 2.5, null], \"b\": \"\\u00e9\\t\"}", &doc, &err) == BR_OK);
	br_yaml_doc_free(&doc);

	static const struct {
		const char *text;
		const char *message;
	} bad[] = {
		{"a: 1\na: 2\n", "t.yaml:2:1: key 'a' given twice (first at line 1); expected each key once"},
		{"a: &x 1\nb: *x\n", "t.yaml:1:4: anchors (&name) are not supported; expected the value written out"},
		{"a: !!str 1\n", "t.yaml:1:4: tags (!name) are not supported; expected a plain value"},
		{"a: 1\n---\nb: 2\n", "t.yaml:2:1: a second YAML document; expected one document per file"},
		{"? [a]\n: 1\n", "t.yaml:1:3: a key must be a plain name, not a list or mapping; expected key: value"},
		{"a: \"x\\0y\"\n", "t.yaml:1:4: a value holds a NUL character; expected text"},
		{"a: [1, 2\n", "t.yaml:2:1: YAML syntax error: did not find expected ',' or ']' (while parsing a flow sequence at line 1, column 4)"},
		{"a: b: c\n", "t.yaml:1:5: YAML syntax error: mapping values are not allowed in this context"},
		{"\xEF\xBB\xBF" "a: 1\n---\nb: 2\n", "t.yaml:2:1: a second YAML document; expected one document per file"},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		br_error_clear(&err);
		br_status_t st = parse(bad[i].text, &doc, &err);
		CHECK_MSG(st == BR_ERR_INPUT && doc.root == NULL, "bad tree %zu", i);
		CHECK_MSG(strcmp(err.message, bad[i].message) == 0, "bad tree %zu:\n  got  %s\n  want %s",
			  i, err.message, bad[i].message);
	}

	/* Deep nesting is refused, not recursed into. */
	char deep[200];
	size_t n = 0;
	for (int i = 0; i < 40; i++)
		deep[n++] = '[';
	deep[n] = '\0';
	CHECK(parse(deep, &doc, &err) == BR_ERR_INPUT &&
	      strstr(err.message, "nested too deeply") != NULL);
}

#define BOARD_OK "name: b\n" BOARD_REST
#define BOARD_REST                                                                                 \
	"core: cortex-m4\n"                                                                        \
	"server: {kind: qemu, machine: netduinoplus2}\n"                                           \
	"counter: {kind: mmio, name: tim2, address: 0x40000024}\n"                                 \
	"memory:\n"                                                                                \
	"  - {name: flash, kind: flash, origin: 0x08000000, length: 1M}\n"                         \
	"  - {name: ram, kind: ram, origin: 0x20000000, length: 128K}\n"

static br_status_t board(const char *text, br_board_t *b, br_error_t *err)
{
	return br_board_parse("dir/b.yaml", (const unsigned char *)text, strlen(text), b, err);
}

static void test_boards(void)
{
	br_board_t b;
	br_error_t err;
	br_error_clear(&err);
	CHECK_MSG(board(BOARD_OK, &b, &err) == BR_OK, "%s", err.message);
	CHECK(b.server_kind == BR_SERVER_KIND_QEMU && strcmp(b.name, "b") == 0);
	CHECK(b.load == BR_BOARD_LOAD_DEFAULT);
	br_counter_t counter;
	br_board_counter(&b, &counter);
	CHECK(counter.kind == BR_COUNTER_MMIO && counter.address == 0x40000024U);
	CHECK(counter.width_bits == 32 && !counter.counts_down && counter.clock_hz == 0);
	CHECK(strcmp(counter.unit, "ticks") == 0);
	CHECK(b.stack_origin == 0x20000000U + 128U * 1024U - 8192U && b.stack_length == 8192U);
	CHECK(b.hardware_breakpoints == 6);
	char server[128];
	br_board_describe_server(&b, server, sizeof(server));
	CHECK(strcmp(server, "qemu-system-arm -M netduinoplus2") == 0);
	br_endpoint_t ep;
	CHECK(br_board_endpoint(&b, "fw.elf", &ep, &err) == BR_OK);
	CHECK(ep.kind == BR_SERVER_KIND_QEMU &&
	      strcmp(ep.launch.params[BR_QEMU_KEY_MACHINE], "netduinoplus2") == 0);
	CHECK(strcmp(ep.launch.kernel, "fw.elf") == 0 && strcmp(ep.flavour, "qemu") == 0);
	CHECK(ep.memory_map.count == 2 && ep.hw_breakpoints == 6);
	const br_region_t *flash = br_memory_map_find(&ep.memory_map, 0x08000100U);
	const br_region_t *ram = br_memory_map_find(&ep.memory_map, 0x20000100U);
	CHECK(flash != NULL && flash->kind == BR_REGION_FLASH && flash->length == 1048576U);
	CHECK(ram != NULL && ram->kind == BR_REGION_RAM);
	br_board_free(&b);

	const char *dwt = "name: b\ncore: cortex-m7\nclock_hz: 216000000\n"
			  "server: {kind: remote, host: lab, port: 3333, flavour: openocd}\n"
			  "counter: {kind: dwt}\nload: always\n"
			  "memory:\n  - {name: f, kind: flash, origin: 0, length: 1M}\n"
			  "  - {name: r, kind: ram, origin: 0x20000000, length: 64K}\n";
	CHECK_MSG(board(dwt, &b, &err) == BR_OK, "%s", err.message);
	br_board_counter(&b, &counter);
	CHECK(b.load == BR_BOARD_LOAD_ALWAYS);
	CHECK(counter.kind == BR_COUNTER_DWT && counter.clock_hz == 216000000U);
	CHECK(b.hardware_breakpoints == 8 && b.server_kind == BR_SERVER_KIND_REMOTE);
	br_board_describe_server(&b, server, sizeof(server));
	CHECK(strcmp(server, "openocd at lab:3333") == 0);
	CHECK(counter.enable_count > 0 && strcmp(counter.unit, "cycles") == 0);
	CHECK(br_board_endpoint(&b, NULL, &ep, &err) == BR_OK);
	CHECK(ep.kind == BR_SERVER_KIND_REMOTE && strcmp(ep.host, "lab") == 0 && ep.port == 3333);
	CHECK(strcmp(ep.flavour, "openocd") == 0 && ep.hw_breakpoints == 8);
	br_board_free(&b);

	/* A launched OpenOCD: its keys are its row's, in the builder's places;
	 * the probe it drives is the lock's name. */
	const char *openocd = "name: b\ncore: cortex-m4\nclock_hz: 180000000\n"
			      "server: {kind: openocd, interface: interface/stlink.cfg,\n"
			      "         target: target/stm32f4x.cfg, args: [-d2]}\n"
			      "counter: {kind: dwt}\n"
			      "memory:\n  - {name: f, kind: flash, origin: 0x08000000, length: 512K}\n"
			      "  - {name: r, kind: ram, origin: 0x20000000, length: 128K}\n";
	CHECK_MSG(board(openocd, &b, &err) == BR_OK, "%s", err.message);
	br_board_describe_server(&b, server, sizeof(server));
	CHECK_MSG(strcmp(server, "openocd -f interface/stlink.cfg -f target/stm32f4x.cfg") == 0,
	          "%s", server);
	CHECK(br_board_endpoint(&b, "fw.elf", &ep, &err) == BR_OK);
	CHECK(ep.kind == BR_SERVER_KIND_OPENOCD && ep.launch.kernel == NULL);
	CHECK(strcmp(ep.launch.params[BR_OPENOCD_KEY_INTERFACE], "interface/stlink.cfg") == 0);
	CHECK(strcmp(ep.launch.params[BR_OPENOCD_KEY_TARGET], "target/stm32f4x.cfg") == 0);
	CHECK(ep.launch.params[BR_OPENOCD_KEY_SERIAL] == NULL && ep.launch.program == NULL);
	CHECK(ep.launch.extra_arg_count == 1 && strcmp(ep.launch.extra_args[0], "-d2") == 0);
	CHECK(strcmp(ep.flavour, "openocd") == 0);
	char lock[128];
	CHECK(br_board_identity(&ep, lock, sizeof(lock)) && strcmp(lock, "probe-first-stlink.cfg") == 0);
	ep.launch.params[BR_OPENOCD_KEY_SERIAL] = "066DFF30";
	CHECK(br_board_identity(&ep, lock, sizeof(lock)) && strcmp(lock, "probe-066DFF30") == 0);
	br_board_free(&b);
	CHECK(board(BOARD_OK, &b, &err) == BR_OK && br_board_endpoint(&b, NULL, &ep, &err) == BR_OK);
	CHECK_MSG(!br_board_identity(&ep, lock, sizeof(lock)), "QEMU shares no hardware: %s", lock);
	br_board_free(&b);

	/* QEMU's own instruction count on a Cortex-M55 machine. */
	const char *icount = "name: b\ncore: cortex-m55\n"
			     "server: {kind: qemu, machine: mps3-an547}\ncounter: {kind: icount}\n"
			     "memory:\n  - {name: f, kind: flash, origin: 0x10000000, length: 512K}\n"
			     "  - {name: r, kind: ram, origin: 0x30000000, length: 512K}\n";
	CHECK_MSG(board(icount, &b, &err) == BR_OK, "%s", err.message);
	br_board_counter(&b, &counter);
	CHECK(counter.kind == BR_COUNTER_ICOUNT && b.core == BR_BOARD_CORE_M55);
	CHECK(b.hardware_breakpoints == 8 && strcmp(br_board_counter_name(&b), "icount") == 0);
	br_board_free(&b);

	static const struct {
		const char *text;
		const char *message;
	} bad[] = {
		{"name: b\ncore: cortex-m0\nserver: {kind: qemu, machine: microbit}\n"
		 "memory:\n  - {name: f, kind: flash, origin: 0, length: 1M}\n"
		 "  - {name: r, kind: ram, origin: 0x20000000, length: 64K}\n",
		 "dir/b.yaml:1:1: board lacks required key 'counter'; expected counter: {kind: icount} "
		 "(QEMU's own instruction count: exact, 64 bits, on every single-core machine; tim2 on "
		 "an STM32 machine counts instructions too)"},
		{"name: b\ncore: cortex-m0plus\nserver: {kind: remote, host: h, port: 3333, flavour: "
		 "openocd}\nmemory:\n  - {name: f, kind: flash, origin: 0, length: 1M}\n"
		 "  - {name: r, kind: ram, origin: 0x20000000, length: 64K}\n",
		 "dir/b.yaml:1:1: board lacks required key 'counter'; expected counter: {kind: systick} "
		 "with clock_hz, or {kind: mmio, ...} for a timer of the chip (a cortex-m0plus has no "
		 "DWT)"},
		{"name: b\ncore: cortex-m4\nserver: {kind: remote, host: h, port: 3333, flavour: "
		 "openocd}\ncounter: {kind: icount}\n"
		 "memory:\n  - {name: f, kind: flash, origin: 0, length: 1M}\n"
		 "  - {name: r, kind: ram, origin: 0x20000000, length: 64K}\n",
		 "dir/b.yaml:4:17: counter icount is QEMU's own instruction count and this board's "
		 "server is openocd, not QEMU; expected counter: {kind: dwt} or {kind: systick} with "
		 "clock_hz, or {kind: mmio, ...} for a timer of the chip (tim2 on an STM32)"},
		{"", "dir/b.yaml:1:1: the file is empty; expected a board mapping (key: value lines)"},
		{"- a\n", "dir/b.yaml:1:1: the file holds a list; expected a board mapping (key: value lines)"},
		{BOARD_OK "colour: red\n",
		 "dir/b.yaml:8:1: unknown key 'colour' in board; expected one of: name, description, "
		 "core, server, counter, clock_hz, memory, stack, hardware_breakpoints, load, gdb"},
		{BOARD_OK "stak: {length: 1K}\n",
		 "dir/b.yaml:8:1: unknown key 'stak' in board (did you mean 'stack'?); expected one of: "
		 "name, description, core, server, counter, clock_hz, memory, stack, "
		 "hardware_breakpoints, load, gdb"},
		{"name: b\ncore: cortex-m4\n",
		 "dir/b.yaml:1:1: board lacks required key 'server'; expected server: a mapping with "
		 "kind: qemu|openocd|remote|serial and its keys"},
		{"name: b\ncore: cortex-m4\nserver: {machine: netduinoplus2}\n",
		 "dir/b.yaml:3:9: server lacks required key 'kind'; expected kind: one of qemu, "
		 "openocd, remote, serial"},
		{"name: c\n" BOARD_REST, "dir/b.yaml:1:7: name 'c' differs from the file's name 'b'; expected name: b"},
		{BOARD_OK "hardware_breakpoints: many\n",
		 "dir/b.yaml:8:23: hardware_breakpoints: 'many' is not a whole number; expected the "
		 "number of FPB comparators, e.g. 6"},
		{BOARD_OK "clock_hz: \"100\"\n",
		 "dir/b.yaml:8:11: clock_hz: \"100\" is quoted text; expected the counter's clock in Hz, "
		 "e.g. 180000000"},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		br_error_clear(&err);
		br_status_t st = board(bad[i].text, &b, &err);
		CHECK_MSG(st == BR_ERR_INPUT, "bad board %zu", i);
		CHECK_MSG(strcmp(err.message, bad[i].message) == 0,
			  "bad board %zu:\n  got  %s\n  want %s", i, err.message, bad[i].message);
	}
}

#define SUITE_HEAD "name: s\nboards: [qemu-netduinoplus2]\n"

static br_status_t suite(const char *text, br_suite_t *s, br_error_t *err)
{
	return br_suite_parse("cfg/s.yaml", (const unsigned char *)text, strlen(text), s, err);
}

static void test_suites(void)
{
	br_suite_t s;
	br_error_t err;
	br_error_clear(&err);
	const char *good = SUITE_HEAD "firmware: fw.elf\nfail_on_regression_percent: 2.5\n"
				      "budgets: {max_stack_bytes: 1K, max_text_bytes: 16K}\n"
				      "benches:\n  - a\n  - name: b\n    iterations: 10\n"
				      "    budgets: {max_stack_bytes: 64}\n"
				      "  - {name: c, elf: /abs/app.elf, function: f}\n"
				      "  - {name: d, elf: app.elf, from: main, to: 'app.c:42'}\n";
	CHECK_MSG(suite(good, &s, &err) == BR_OK, "%s", err.message);
	CHECK(s.bench_count == 4 && strcmp(s.benches[0].name.value, "a") == 0);
	CHECK(strcmp(s.firmware_path, "cfg/fw.elf") == 0);
	CHECK(s.regression_percent == 2.5 && s.iterations == 100 && s.warmup == 2);
	CHECK(s.benches[0].kind == BR_SUITE_ENTRY_STUB && s.benches[1].iterations.value == 10);
	CHECK(s.benches[2].kind == BR_SUITE_ENTRY_FUNCTION &&
	      strcmp(s.benches[2].elf_path, "/abs/app.elf") == 0);
	CHECK(s.benches[3].kind == BR_SUITE_ENTRY_RANGE &&
	      strcmp(s.benches[3].elf_path, "cfg/app.elf") == 0);
	br_suite_budgets_t b1 = br_suite_bench_budgets(&s, &s.benches[1]);
	br_suite_budgets_t b0 = br_suite_bench_budgets(&s, &s.benches[0]);
	CHECK(b1.max_stack_bytes.value == 64 && b0.max_stack_bytes.value == 1024);
	CHECK(b1.max_text_bytes.value == 16384);
	CHECK(strcmp(br_suite_board(&s, 0), "qemu-netduinoplus2") == 0);
	br_suite_free(&s);

	static const struct {
		const char *text;
		const char *message;
	} bad[] = {
		{SUITE_HEAD "benches: []\n",
		 "cfg/s.yaml:3:10: benches has 0 items; expected a list of 1 to 32 benches: names, or "
		 "{name, ...} mappings"},
		{SUITE_HEAD "benches: [a, a]\n",
		 "cfg/s.yaml:3:14: bench 'a' listed twice (first at line 3); expected each bench once"},
		{SUITE_HEAD "benches: [{name: x, from: f}]\n",
		 "cfg/s.yaml:3:27: bench 'x' has from but no elf; expected elf: PATH (a bench of the "
		 "suite firmware runs whole)"},
		{SUITE_HEAD "benches: [{name: x, elf: a.elf, from: f}]\n",
		 "cfg/s.yaml:3:39: bench 'x' has from without to; expected both from: and to:"},
		{SUITE_HEAD "benches: [{name: x, elf: a.elf, function: f, to: g}]\n",
		 "cfg/s.yaml:3:43: bench 'x' has both function and from/to; expected either function: "
		 "NAME or from: and to:"},
		{SUITE_HEAD "benches: [{name: x, elf: a.elf}]\n",
		 "cfg/s.yaml:3:26: bench 'x' has elf but nothing to measure in it; expected function: "
		 "NAME, or from: and to:"},
		{SUITE_HEAD "default_iterations: 5000\nbenches: [a]\n",
		 "cfg/s.yaml:3:21: default_iterations: 5000 is out of range; expected a whole number "
		 "from 1 to 1024"},
		{SUITE_HEAD "stack_watermark: yes\nbenches: [a]\n",
		 "cfg/s.yaml:3:18: stack_watermark: 'yes' is not true or false; expected true or false"},
		{SUITE_HEAD "benches: [{name: x, budgets: {max_text_bytes: 1}}]\n",
		 "cfg/s.yaml:3:31: unknown key 'max_text_bytes' in benches[0].budgets; expected one "
		 "of: max_stack_bytes, max_heap_bytes, max_cycles_per_iteration"},
		{SUITE_HEAD "benches: [averyveryverylongbenchname]\n",
		 "cfg/s.yaml:3:11: bench name 'averyveryverylongbenchname' is longer than 23 "
		 "characters; expected a shorter name"},
		{"name: s\nbenches: [a]\n",
		 "cfg/s.yaml:1:1: suite lacks required key 'boards'; expected boards: a list of board "
		 "names (configs/boards/NAME.yaml) or board files"},
		{SUITE_HEAD "benches: [\"a\\x1b[31m\"]\n",
		 "cfg/s.yaml:3:11: bench name 'a\\x1b[31m' holds a control character or bytes that "
		 "are not UTF-8; expected printable text"},
		{"name: \"s\\r\\a\"\nboards: [b]\nbenches: [a]\n",
		 "cfg/s.yaml:1:7: suite name 's\\r\\x07' holds a control character or bytes that are "
		 "not UTF-8; expected printable text"},
		{SUITE_HEAD "stack_watermark: false\nbudgets: {max_stack_bytes: 8}\nbenches: [a]\n",
		 "cfg/s.yaml:4:28: max_stack_bytes needs the stack measured; expected "
		 "stack_watermark: true"},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		br_error_clear(&err);
		br_status_t st = suite(bad[i].text, &s, &err);
		CHECK_MSG(st == BR_ERR_INPUT, "bad suite %zu", i);
		CHECK_MSG(strcmp(err.message, bad[i].message) == 0,
			  "bad suite %zu:\n  got  %s\n  want %s", i, err.message, bad[i].message);
	}
}

int main(void)
{
	test_scalars();
	test_tree();
	test_boards();
	test_suites();
	return check_finish();
}
