#pragma once
// The recipes-through-the-pipeline test (tst_recipes_pipeline.cpp), its table of recipe rows in
// tst_recipes_pipeline_rows.cpp.
#include "host/HostConnection.h"
#include "host/PluginRegistry.h"
#include "optimize/AgentSession.h"
#include "optimize/CandidateCheck.h"

#include <QObject>
#include <QTemporaryDir>

#include <memory>

using namespace strata;
using namespace strata::optimize;

class TestRecipesPipeline : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void recipeCandidatePassesTheLoopCheck_data();
    void recipeCandidatePassesTheLoopCheck();
    void assemblerHazardRejectsAKeptPromise();
    void recipeStaysSilent_data();
    void recipeStaysSilent();
    void recipeStaysSilentWithGpuFacts_data();  // the H200-size grid or a measured finding, which only a GPU gives
    void recipeStaysSilentWithGpuFacts();
    void kernelOfAnotherFileGetsNoRecipe();
    void aFewProposalsKeepARivalChoice();
    void growBlockKeepsTheWarps();

private:
    // The candidate of `recipe` ("id:title fragment") for the first kernel of `task`, through the
    // loop's check (compile, promised fact, verification); `row.state` says how far it went.
    void checkRecipeCandidate(const QString &task, const QString &bound, const QString &recipe, qint64 fullGrid,
                              const QString &measured, CandidateRow &row);
    // No proposal of the first kernel of `task` has an id containing `recipe`; `fullGrid` > 0 puts
    // that many programs on grid axis 0 (the H200-size launch) before the recipes run.
    void expectSilent(const QString &task, const QString &recipe, qint64 fullGrid, const QString &measured = {});

    QTemporaryDir m_dir;
    PluginRegistry m_plugins;
    GpuGate m_gate;
    std::unique_ptr<HostConnection> m_agent;
    std::unique_ptr<AgentSession> m_session;
};
