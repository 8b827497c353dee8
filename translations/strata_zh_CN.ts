<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>main</name>
    <message>
        <source>Explains why a Triton kernel is slow.</source>
        <translation>解释 Triton 内核为何变慢。</translation>
    </message>
    <message>
        <source>compile.json (or its folder), or a kernel .py</source>
        <translation>compile.json（或其所在目录），或内核 .py 文件</translation>
    </message>
    <message>
        <source>Spec file for a kernel .py.</source>
        <translation>内核 .py 的规格文件。</translation>
    </message>
    <message>
        <source>Compile a bundled sample, e.g. matmul.default.</source>
        <translation>编译内置示例，例如 matmul.default。</translation>
    </message>
    <message>
        <source>Use a dark palette.</source>
        <translation>使用深色配色。</translation>
    </message>
</context>
<context>
    <name>strata::AgentCompiler</name>
    <message>
        <source>local agent (not started)</source>
        <translation>本地代理（未启动）</translation>
    </message>
    <message>
        <source>kernel %1: %2</source>
        <translation>内核 %1：%2</translation>
    </message>
    <message>
        <source>cannot start the host agent: %1</source>
        <translation>无法启动主机代理：%1</translation>
    </message>
    <message>
        <source>compiling %1 on %2</source>
        <translation>正在 %2 上编译 %1</translation>
    </message>
    <message>
        <source>cannot open spec file: %1</source>
        <translation>无法打开规格文件：%1</translation>
    </message>
    <message>
        <source>spec is not a JSON object: %1</source>
        <translation>规格不是 JSON 对象：%1</translation>
    </message>
</context>
<context>
    <name>strata::MainWindow</name>
    <message>
        <source>Strata</source>
        <translation>Strata</translation>
    </message>
    <message>
        <source>Open a kernel (Ctrl+O) or a sample (Ctrl+Shift+O).</source>
        <translation>打开内核（Ctrl+O）或示例（Ctrl+Shift+O）。</translation>
    </message>
    <message>
        <source>No compile loaded.</source>
        <translation>尚未加载编译结果。</translation>
    </message>
    <message>
        <source>Compile failed: %1</source>
        <translation>编译失败：%1</translation>
    </message>
    <message>
        <source>Compile failed</source>
        <translation>编译失败</translation>
    </message>
    <message>
        <source>Loading %1 ...</source>
        <translation>正在加载 %1 ...</translation>
    </message>
    <message>
        <source>Cannot read the spec</source>
        <translation>无法读取规格</translation>
    </message>
    <message>
        <source>Starting the agent for %1 ...</source>
        <translation>正在为 %1 启动代理 ...</translation>
    </message>
    <message>
        <source>Recompiling %1 ...</source>
        <translation>正在重新编译 %1 ...</translation>
    </message>
    <message>
        <source>Nothing to recompile: open a kernel or a sample first.</source>
        <translation>没有可重新编译的内容：请先打开内核或示例。</translation>
    </message>
    <message>
        <source>Open a kernel or a compile</source>
        <translation>打开内核或编译结果</translation>
    </message>
    <message>
        <source>Kernels and compiles (*.py compile.json *.json);;Triton kernels (*.py);;Compiles (compile.json)</source>
        <translation>内核和编译结果 (*.py compile.json *.json);;Triton 内核 (*.py);;编译结果 (compile.json)</translation>
    </message>
    <message>
        <source>Choose a spec</source>
        <translation>选择规格</translation>
    </message>
    <message>
        <source>Launch specialisation:</source>
        <translation>启动特化：</translation>
    </message>
    <message>
        <source>Spec for %1</source>
        <translation>%1 的规格</translation>
    </message>
    <message>
        <source>Specs (*.spec.json *.json)</source>
        <translation>规格 (*.spec.json *.json)</translation>
    </message>
    <message>
        <source>Reading the stages of %1 ...</source>
        <translation>正在读取 %1 的各阶段 ...</translation>
    </message>
    <message>
        <source>This compile has no %1 stage.</source>
        <translation>此编译结果没有 %1 阶段。</translation>
    </message>
    <message>
        <source>Could not read this stage:
%1</source>
        <translation>无法读取此阶段：
%1</translation>
    </message>
    <message>
        <source>%1 (%2) - Strata</source>
        <translation>%1 (%2) - Strata</translation>
    </message>
    <message>
        <source>Some stages could not be read</source>
        <translation>部分阶段无法读取</translation>
    </message>
    <message>
        <source>Could not load: %1</source>
        <translation>无法加载：%1</translation>
    </message>
    <message>
        <source>Could not load the compile</source>
        <translation>无法加载编译结果</translation>
    </message>
    <message>
        <source>Line %1: linked lines highlighted in every stage</source>
        <translation>第 %1 行：已在所有阶段高亮关联行</translation>
    </message>
    <message>
        <source>No kernel</source>
        <translation>无内核</translation>
    </message>
    <message>
        <source>Kernel: %1</source>
        <translation>内核：%1</translation>
    </message>
    <message>
        <source>Target: %1</source>
        <translation>目标：%1</translation>
    </message>
    <message>
        <source>Registers: unknown</source>
        <translation>寄存器：未知</translation>
    </message>
    <message>
        <source>Registers: %1, spills: %2 B store / %3 B load</source>
        <translation>寄存器：%1，溢出：存储 %2 B / 加载 %3 B</translation>
    </message>
    <message>
        <source>Passes</source>
        <translation>Pass 列表</translation>
    </message>
    <message>
        <source>Remarks</source>
        <translation>编译提示</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Open Kernel or Compile...</source>
        <translation>打开内核或编译结果(&amp;O)...</translation>
    </message>
    <message>
        <source>Open a kernel (.py with its spec) to compile, or an existing compile.json</source>
        <translation>打开要编译的内核（.py 及其规格），或已有的 compile.json</translation>
    </message>
    <message>
        <source>&amp;Samples...</source>
        <translation>示例(&amp;S)...</translation>
    </message>
    <message>
        <source>&amp;Recompile</source>
        <translation>重新编译(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>Focus %1</source>
        <translation>聚焦 %1</translation>
    </message>
    <message>
        <source>Remarks (%1)</source>
        <translation>编译提示（%1）</translation>
    </message>
    <message>
        <source>Loaded %1: %2 stages</source>
        <translation>已加载 %1：%2 个阶段</translation>
    </message>
    <message>
        <source>Loaded %1; stages that could not be read: %2</source>
        <translation>已加载 %1；无法读取的阶段：%2</translation>
    </message>
    <message>
        <source>1 remark</source>
        <translation>1 条提示</translation>
    </message>
    <message>
        <source>%1 remarks</source>
        <translation>%1 条提示</translation>
    </message>
</context>
<context>
    <name>strata::PassListModel</name>
    <message>
        <source>%1 (%2) on %3
Shows the IR before this pass and what the pass changed.</source>
        <translation>%1 (%2)，作用于 %3
显示此 pass 之前的 IR 以及它所做的改动。</translation>
    </message>
    <message>
        <source>#</source>
        <translation>#</translation>
    </message>
    <message>
        <source>Pass</source>
        <translation>Pass</translation>
    </message>
    <message>
        <source>Stage</source>
        <translation>阶段</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
</context>
<context>
    <name>strata::PassPanel</name>
    <message>
        <source>%1: cannot read pass dump: %2</source>
        <translation>%1：无法读取 pass 转储：%2</translation>
    </message>
    <message>
        <source>Select a pass to see what it changed.</source>
        <translation>选择一个 pass 查看它的改动。</translation>
    </message>
    <message>
        <source>Diff (what the pass changed)</source>
        <translation>差异（pass 的改动）</translation>
    </message>
    <message>
        <source>IR before the pass</source>
        <translation>pass 之前的 IR</translation>
    </message>
    <message>
        <source>This compile has no pass dumps.</source>
        <translation>此编译结果没有 pass 转储。</translation>
    </message>
    <message>
        <source>Loading %1 ...</source>
        <translation>正在加载 %1 ...</translation>
    </message>
    <message>
        <source>The last pass has no later dump to compare with.</source>
        <translation>最后一个 pass 没有可供比较的后续转储。</translation>
    </message>
    <message>
        <source>%1 left the IR unchanged.</source>
        <translation>%1 未改变 IR。</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; (%2): +%3 / -%4 lines, compared with the IR before %5</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; (%2)：+%3 / -%4 行，与 %5 之前的 IR 比较</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; (%2)</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; (%2)</translation>
    </message>
    <message>
        <source>This dump was not kept with the compile (omitted to save space).</source>
        <translation>此转储未随编译结果保存（为节省空间而省略）。</translation>
    </message>
    <message>
        <source>1 pass</source>
        <translation>1 个 pass</translation>
    </message>
    <message>
        <source>%1 passes</source>
        <translation>%1 个 pass</translation>
    </message>
</context>
<context>
    <name>strata::SamplesDialog</name>
    <message>
        <source>Open a sample kernel</source>
        <translation>打开示例内核</translation>
    </message>
    <message>
        <source>Compile</source>
        <translation>编译</translation>
    </message>
    <message>
        <source>No samples found in %1.</source>
        <translation>在 %1 中未找到示例。</translation>
    </message>
    <message>
        <source>Samples in %1:</source>
        <translation>%1 中的示例：</translation>
    </message>
    <message>
        <source>Kernel &lt;b&gt;%1&lt;/b&gt;, target %2, num_warps %3, num_stages %4</source>
        <translation>内核 &lt;b&gt;%1&lt;/b&gt;，目标 %2，num_warps %3，num_stages %4</translation>
    </message>
</context>
<context>
    <name>strata::StagePane</name>
    <message>
        <source>1 line</source>
        <translation>1 行</translation>
    </message>
    <message>
        <source>%1 lines</source>
        <translation>%1 行</translation>
    </message>
    <message>
        <source>%1 linked</source>
        <translation>%1 行关联</translation>
    </message>
</context>
</TS>
