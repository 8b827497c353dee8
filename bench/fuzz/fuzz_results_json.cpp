// fuzz_results_json: arbitrary bytes as a suite results file (schema "strata.bench"), read as
// `strata-cli report` and the suite browser read it: the schema sniff (readSchemaName), then the
// streaming SAX reader (readResultsFile), each task it accepts written back as the JSON and CSV
// rows the reports are made of, and the suite's header once the whole file is read.
#include "FuzzSupport.h"

#include "optimize/OutcomeJson.h"
#include "optimize/ResultsFile.h"

using namespace strata;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QString path = fuzz::writeScratchFile(QStringLiteral("results.json"), data, size);
    if (Expected<QString> schema = optimize::readSchemaName(path); !schema)
        (void)schema.error().toString();
    Expected<optimize::SuiteOutcome> suite = optimize::readResultsFile(path, [](optimize::TaskOutcome &&task) {
        (void)optimize::toJson(task);
        (void)optimize::csvRow(task);
    });
    if (suite)
        (void)optimize::toJson(*suite);
    else
        (void)suite.error().toString();
    return 0;
}
