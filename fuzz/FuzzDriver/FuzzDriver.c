// FuzzDriver: the entry point of each fuzz executable.
//
// SwiftPM links an executable with `--defsym main=<Module>_main` (Swift executables are compiled
// with their entry point renamed so tests can link them). A fuzz target is `-parse-as-library`
// and has no entry point of its own, so each `<Module>_main` below hands over to libFuzzer's
// driver. Where SwiftPM does not rename, libFuzzer's own `main` is used and these go unused.
#include "FuzzDriver.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run(int argc, char **argv) {
    return LLVMFuzzerRunDriver(&argc, &argv, LLVMFuzzerTestOneInput);
}

int FuzzLineParser_main(int argc, char **argv) { return run(argc, argv); }
int FuzzMoney_main(int argc, char **argv) { return run(argc, argv); }
int FuzzProductJSON_main(int argc, char **argv) { return run(argc, argv); }
int FuzzProductCSV_main(int argc, char **argv) { return run(argc, argv); }
int FuzzECBRates_main(int argc, char **argv) { return run(argc, argv); }
