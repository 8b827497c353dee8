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
        <source>agent on %1 (not started)</source>
        <translation>%1 上的代理（未启动）</translation>
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
    <name>strata::HostInfoPanel</name>
    <message>
        <source>%1 GiB</source>
        <translation>%1 GiB</translation>
    </message>
    <message>
        <source>driver %1</source>
        <translation>驱动 %1</translation>
    </message>
    <message>
        <source>%1: %2 (%3)</source>
        <translation>%1：%2（%3）</translation>
    </message>
    <message>
        <source>Connect / refresh</source>
        <translation>连接 / 刷新</translation>
    </message>
    <message>
        <source>Start the host&apos;s agent if needed and ask it what it has</source>
        <translation>必要时启动该主机的代理，并查询其环境</translation>
    </message>
    <message>
        <source>Agent and toolchain</source>
        <translation>代理与工具链</translation>
    </message>
    <message>
        <source>Agent:</source>
        <translation>代理：</translation>
    </message>
    <message>
        <source>Python:</source>
        <translation>Python：</translation>
    </message>
    <message>
        <source>Triton:</source>
        <translation>Triton：</translation>
    </message>
    <message>
        <source>torch:</source>
        <translation>torch：</translation>
    </message>
    <message>
        <source>GPUs:</source>
        <translation>GPU：</translation>
    </message>
    <message>
        <source>Targets:</source>
        <translation>目标架构：</translation>
    </message>
    <message>
        <source>Platform:</source>
        <translation>平台：</translation>
    </message>
    <message>
        <source>Measured ceilings</source>
        <translation>实测性能上限</translation>
    </message>
    <message>
        <source>Measure ceilings</source>
        <translation>测量性能上限</translation>
    </message>
    <message>
        <source>Copy bandwidth and matmul rates of the host&apos;s GPU (needs torch); measured once per host, then read from its cache</source>
        <translation>该主机 GPU 的拷贝带宽和矩阵乘速率（需要 torch）；每台主机测量一次，之后从缓存读取</translation>
    </message>
    <message>
        <source>Measure again (ignore the cache)</source>
        <translation>重新测量（忽略缓存）</translation>
    </message>
    <message>
        <source>Ceiling</source>
        <translation>上限</translation>
    </message>
    <message>
        <source>Measured</source>
        <translation>实测值</translation>
    </message>
    <message>
        <source>&lt;b&gt;local&lt;/b&gt; (this machine)</source>
        <translation>&lt;b&gt;local&lt;/b&gt;（本机）</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; over SSH</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;（通过 SSH）</translation>
    </message>
    <message>
        <source>Agent command: %1</source>
        <translation>代理命令：%1</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>%1 (protocol %2)</source>
        <translation>%1（协议 %2）</translation>
    </message>
    <message>
        <source>not installed</source>
        <translation>未安装</translation>
    </message>
    <message>
        <source>not installed (ceilings need it)</source>
        <translation>未安装（测量性能上限需要它）</translation>
    </message>
    <message>
        <source>none found</source>
        <translation>未发现</translation>
    </message>
    <message>
        <source>%1 (default %2)</source>
        <translation>%1（默认 %2）</translation>
    </message>
    <message>
        <source>Measuring ... (a first measurement takes about a minute)</source>
        <translation>正在测量……（首次测量约需一分钟）</translation>
    </message>
    <message>
        <source>This host has no GPU: ceilings need one.</source>
        <translation>该主机没有 GPU：测量性能上限需要 GPU。</translation>
    </message>
    <message>
        <source>Not measured yet.</source>
        <translation>尚未测量。</translation>
    </message>
    <message>
        <source>Copy bandwidth</source>
        <translation>拷贝带宽</translation>
    </message>
    <message>
        <source>Matmul %1</source>
        <translation>矩阵乘 %1</translation>
    </message>
    <message>
        <source>%1: cached, from %2</source>
        <translation>%1：缓存结果，来自 %2</translation>
    </message>
    <message>
        <source>%1: measured just now in %2 s</source>
        <translation>%1：刚刚测量，用时 %2 秒</translation>
    </message>
</context>
<context>
    <name>strata::HostProbe</name>
    <message>
        <source>no answer to %1 within %2 s</source>
        <translation>%2 秒内未收到 %1 的应答</translation>
    </message>
    <message>
        <source>cannot start the agent on %1: %2</source>
        <translation>无法在 %1 上启动代理：%2</translation>
    </message>
</context>
<context>
    <name>strata::HostReport</name>
    <message>
        <source>the info reply is not a JSON object</source>
        <translation>info 应答不是 JSON 对象</translation>
    </message>
    <message>
        <source>the info reply has no python version</source>
        <translation>info 应答中没有 Python 版本</translation>
    </message>
    <message>
        <source>the ceilings reply has no &quot;ceilings&quot; object</source>
        <translation>ceilings 应答中没有 &quot;ceilings&quot; 对象</translation>
    </message>
    <message>
        <source>the ceilings reply has no copy_bandwidth_gbs number</source>
        <translation>ceilings 应答中没有 copy_bandwidth_gbs 数值</translation>
    </message>
    <message>
        <source>the ceilings reply has no matmul_tflops rates</source>
        <translation>ceilings 应答中没有 matmul_tflops 速率</translation>
    </message>
    <message>
        <source>torch is not installed for the agent&apos;s Python on this host: ceilings need torch and a GPU.</source>
        <translation>该主机上代理所用的 Python 未安装 torch：测量性能上限需要 torch 和 GPU。</translation>
    </message>
    <message>
        <source>torch on this host sees no GPU (check CUDA_VISIBLE_DEVICES and the driver): ceilings need one.</source>
        <translation>该主机上的 torch 看不到 GPU（请检查 CUDA_VISIBLE_DEVICES 和驱动）：测量性能上限需要 GPU。</translation>
    </message>
    <message>
        <source>no GPU on this host: ceilings need one.</source>
        <translation>该主机没有 GPU：测量性能上限需要 GPU。</translation>
    </message>
    <message>
        <source>this agent does not know the ceilings method: update strata_agent on the host.</source>
        <translation>该代理不支持 ceilings 方法：请更新主机上的 strata_agent。</translation>
    </message>
    <message>
        <source>the measurement ran past its time limit.</source>
        <translation>测量超出了时间限制。</translation>
    </message>
    <message>
        <source>the agent stopped before it answered.</source>
        <translation>代理在应答前已停止。</translation>
    </message>
    <message>
        <source>the ceilings could not be measured.</source>
        <translation>无法测量性能上限。</translation>
    </message>
    <message>
        <source>%1
Agent: %2</source>
        <translation>%1
代理：%2</translation>
    </message>
    <message>
        <source>%1 GB/s</source>
        <translation>%1 GB/s</translation>
    </message>
    <message>
        <source>%1 TFLOP/s</source>
        <translation>%1 TFLOP/s</translation>
    </message>
</context>
<context>
    <name>strata::HostSettings</name>
    <message>
        <source>the host name is empty</source>
        <translation>主机名为空</translation>
    </message>
    <message>
        <source>a host name cannot start with &apos;-&apos; (ssh would read it as an option)</source>
        <translation>主机名不能以 &apos;-&apos; 开头（ssh 会把它当作选项）</translation>
    </message>
    <message>
        <source>a host name may hold only letters, digits and . _ - @ : [ ] %</source>
        <translation>主机名只能包含字母、数字和 . _ - @ : [ ] %</translation>
    </message>
    <message>
        <source>this looks like user:password@host; give only user@host or an ssh alias (passwords are never stored)</source>
        <translation>这看起来像 user:password@host；请只填写 user@host 或 ssh 别名（从不保存密码）</translation>
    </message>
    <message>
        <source>%1 is already in the list</source>
        <translation>%1 已在列表中</translation>
    </message>
</context>
<context>
    <name>strata::HostsDialog</name>
    <message>
        <source>Hosts</source>
        <translation>主机</translation>
    </message>
    <message>
        <source>ssh alias or user@host</source>
        <translation>ssh 别名或 user@host</translation>
    </message>
    <message>
        <source>A Host from ~/.ssh/config or any name ssh accepts; keys come from your ssh agent or config, nothing secret is stored</source>
        <translation>~/.ssh/config 中的 Host，或 ssh 接受的任何名称；密钥来自你的 ssh-agent 或配置，不保存任何机密</translation>
    </message>
    <message>
        <source>Add SSH host</source>
        <translation>添加 SSH 主机</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <source>Use for compiles</source>
        <translation>用于编译</translation>
    </message>
    <message>
        <source>Compiles from the main window run on this host&apos;s agent</source>
        <translation>主窗口的编译将在该主机的代理上运行</translation>
    </message>
    <message>
        <source>Hosts:</source>
        <translation>主机：</translation>
    </message>
    <message>
        <source>local (this machine)</source>
        <translation>local（本机）</translation>
    </message>
    <message>
        <source>%1 (ssh)</source>
        <translation>%1（ssh）</translation>
    </message>
    <message>
        <source>%1, compiles here</source>
        <translation>%1，编译在此运行</translation>
    </message>
    <message>
        <source>Not connected: press Connect / refresh.</source>
        <translation>未连接：请点击“连接 / 刷新”。</translation>
    </message>
    <message>
        <source>Connected.</source>
        <translation>已连接。</translation>
    </message>
    <message>
        <source>Could not reach the agent.</source>
        <translation>无法连接到代理。</translation>
    </message>
    <message>
        <source>Connecting to %1 ...</source>
        <translation>正在连接 %1 ……</translation>
    </message>
    <message>
        <source>Cannot add &quot;%1&quot;: %2</source>
        <translation>无法添加“%1”：%2</translation>
    </message>
    <message>
        <source>Added %1. Press Connect / refresh to reach its agent.</source>
        <translation>已添加 %1。请点击“连接 / 刷新”连接其代理。</translation>
    </message>
    <message>
        <source>Stopped when the dialog was closed.</source>
        <translation>对话框关闭时已停止。</translation>
    </message>
    <message>
        <source>Compiles now run on %1.</source>
        <translation>编译现在在 %1 上运行。</translation>
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
        <source>no spec file for this kernel: put NAME.VARIANT.spec.json next to it (see suites/samples/README.md) or pass --spec</source>
        <translation>此内核没有规格文件：请在其旁边放置 NAME.VARIANT.spec.json（见 suites/samples/README.md），或使用 --spec 指定</translation>
    </message>
    <message>
        <source>Cannot compile</source>
        <translation>无法编译</translation>
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
    <message>
        <source>&amp;Host</source>
        <translation>主机(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;Hosts...</source>
        <translation>主机(&amp;H)...</translation>
    </message>
    <message>
        <source>Add SSH hosts, see their Triton, torch and GPUs, measure their ceilings</source>
        <translation>添加 SSH 主机，查看其 Triton、torch 和 GPU，测量其性能上限</translation>
    </message>
    <message>
        <source>Compile on local</source>
        <translation>在本机编译</translation>
    </message>
    <message>
        <source>Compile on %1 (ssh)</source>
        <translation>在 %1 上编译（ssh）</translation>
    </message>
    <message>
        <source>Host: %1</source>
        <translation>主机：%1</translation>
    </message>
    <message>
        <source>Compiles run on this host&apos;s agent: %1</source>
        <translation>编译在该主机的代理上运行：%1</translation>
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
