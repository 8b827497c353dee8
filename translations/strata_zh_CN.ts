<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>QObject</name>
    <message>
        <location filename="../ui/views/CandidateReview.cpp" line="25"/>
        <source>initial kernel</source>
        <translation>初始内核</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <location filename="../ui/app/main.cpp" line="30"/>
        <source>Explains why a Triton kernel is slow.</source>
        <translation>解释 Triton 内核为何变慢。</translation>
    </message>
    <message>
        <location filename="../ui/app/main.cpp" line="34"/>
        <source>compile.json (or its folder), or a kernel .py</source>
        <translation>compile.json（或其所在目录），或内核 .py 文件</translation>
    </message>
    <message>
        <location filename="../ui/app/main.cpp" line="36"/>
        <source>Spec file for a kernel .py.</source>
        <translation>内核 .py 的规格文件。</translation>
    </message>
    <message>
        <location filename="../ui/app/main.cpp" line="39"/>
        <source>Compile a bundled sample, e.g. matmul.default.</source>
        <translation>编译内置示例，例如 matmul.default。</translation>
    </message>
    <message>
        <location filename="../ui/app/main.cpp" line="42"/>
        <source>Open suite results from strata-cli bench --json.</source>
        <translation>打开 strata-cli bench --json 生成的套件结果。</translation>
    </message>
    <message>
        <location filename="../ui/app/main.cpp" line="45"/>
        <source>Language for this run, e.g. zh_CN or en (default: Settings &gt; Language, else the system&apos;s).</source>
        <translation>本次运行使用的语言，例如 zh_CN 或 en（默认：设置 &gt; 语言，否则跟随系统）。</translation>
    </message>
    <message>
        <location filename="../ui/app/main.cpp" line="47"/>
        <source>Use a dark palette.</source>
        <translation>使用深色配色。</translation>
    </message>
</context>
<context>
    <name>strata::AgentCompiler</name>
    <message>
        <location filename="../ui/app/AgentCompiler.cpp" line="30"/>
        <source>local agent (not started)</source>
        <translation>本地代理（未启动）</translation>
    </message>
    <message>
        <location filename="../ui/app/AgentCompiler.cpp" line="31"/>
        <source>agent on %1 (not started)</source>
        <translation>%1 上的代理（未启动）</translation>
    </message>
    <message>
        <location filename="../ui/app/AgentCompiler.cpp" line="74"/>
        <source>kernel %1: %2</source>
        <translation>内核 %1：%2</translation>
    </message>
    <message>
        <location filename="../ui/app/AgentCompiler.cpp" line="82"/>
        <source>cannot start the host agent: %1</source>
        <translation>无法启动主机代理：%1</translation>
    </message>
    <message>
        <location filename="../ui/app/AgentCompiler.cpp" line="85"/>
        <source>compiling %1 on %2</source>
        <translation>正在 %2 上编译 %1</translation>
    </message>
    <message>
        <location filename="../ui/app/AgentCompiler.cpp" line="112"/>
        <source>cannot open spec file: %1</source>
        <translation>无法打开规格文件：%1</translation>
    </message>
    <message>
        <location filename="../ui/app/AgentCompiler.cpp" line="119"/>
        <source>spec is not a JSON object: %1</source>
        <translation>规格不是 JSON 对象：%1</translation>
    </message>
</context>
<context>
    <name>strata::CandidateReview</name>
    <message>
        <location filename="../ui/views/CandidateReview.cpp" line="37"/>
        <source>&amp;Accept rewrite</source>
        <translation>接受改写(&amp;A)</translation>
    </message>
    <message>
        <location filename="../ui/views/CandidateReview.cpp" line="38"/>
        <source>Re&amp;ject rewrite</source>
        <translation>拒绝改写(&amp;J)</translation>
    </message>
    <message>
        <location filename="../ui/views/CandidateReview.cpp" line="41"/>
        <source>#</source>
        <translation>#</translation>
    </message>
    <message>
        <location filename="../ui/views/CandidateReview.cpp" line="41"/>
        <source>Round</source>
        <translation>轮次</translation>
    </message>
    <message>
        <location filename="../ui/views/CandidateReview.cpp" line="41"/>
        <source>Rewrite</source>
        <translation>改写</translation>
    </message>
    <message>
        <location filename="../ui/views/CandidateReview.cpp" line="41"/>
        <source>Verdict</source>
        <translation>结论</translation>
    </message>
    <message>
        <location filename="../ui/views/CandidateReview.cpp" line="41"/>
        <source>Median ms</source>
        <translation>中位数 ms</translation>
    </message>
    <message>
        <location filename="../ui/views/CandidateReview.cpp" line="41"/>
        <source>vs parent</source>
        <translation>相对父版本</translation>
    </message>
    <message>
        <location filename="../ui/views/CandidateReview.cpp" line="41"/>
        <source>Review</source>
        <translation>审阅</translation>
    </message>
    <message>
        <location filename="../ui/views/CandidateReview.cpp" line="100"/>
        <source>%1: no candidates were stored</source>
        <translation>%1：没有保存任何候选</translation>
    </message>
    <message>
        <location filename="../ui/views/CandidateReview.cpp" line="100"/>
        <source>Select a task.</source>
        <translation>请选择一个任务。</translation>
    </message>
    <message>
        <location filename="../ui/views/CandidateReview.cpp" line="101"/>
        <source>No rewrite selected.</source>
        <translation>未选择改写。</translation>
    </message>
    <message>
        <location filename="../ui/views/CandidateReview.cpp" line="171"/>
        <source>acts on: %1</source>
        <translation>针对：%1</translation>
    </message>
    <message>
        <location filename="../ui/views/CandidateReview.cpp" line="175"/>
        <source>review: %1</source>
        <translation>审阅：%1</translation>
    </message>
    <message>
        <location filename="../ui/views/CandidateReview.cpp" line="179"/>
        <source>The results file holds no sources (written with --no-sources).</source>
        <translation>结果文件不含源代码（以 --no-sources 写出）。</translation>
    </message>
</context>
<context>
    <name>strata::DiagnosisPanel</name>
    <message>
        <location filename="../ui/views/DiagnosisPanel.cpp" line="56"/>
        <source>Open or compile a kernel to diagnose it.</source>
        <translation>打开或编译一个内核以进行诊断。</translation>
    </message>
    <message>
        <location filename="../ui/views/DiagnosisPanel.cpp" line="71"/>
        <source>Diagnosing %1 ...</source>
        <translation>正在诊断 %1 ...</translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/views/DiagnosisPanel.cpp" line="79"/>
        <source>%1: %n finding(s) in %2 ms. %3</source>
        <translation>
            <numerusform>%1：%n 个发现，用时 %2 ms。%3</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../ui/views/DiagnosisPanel.cpp" line="102"/>
        <source>%1: not a saved time, profile or ceilings reply (%2)</source>
        <translation>%1：不是保存的 time、profile 或 ceilings 回复（%2）</translation>
    </message>
</context>
<context>
    <name>strata::DiagnosisTreeModel</name>
    <message>
        <location filename="../ui/models/DiagnosisTreeModel.cpp" line="102"/>
        <source>Findings (%1), %2</source>
        <translation>发现（%1），%2</translation>
    </message>
    <message>
        <location filename="../ui/models/DiagnosisTreeModel.cpp" line="103"/>
        <source>Escalation (%1 steps)</source>
        <translation>升级记录（%1 步）</translation>
    </message>
    <message>
        <location filename="../ui/models/DiagnosisTreeModel.cpp" line="152"/>
        <source>cause: %1</source>
        <translation>原因：%1</translation>
    </message>
    <message>
        <location filename="../ui/models/DiagnosisTreeModel.cpp" line="184"/>
        <source>Finding / evidence</source>
        <translation>发现 / 证据</translation>
    </message>
    <message>
        <location filename="../ui/models/DiagnosisTreeModel.cpp" line="185"/>
        <source>Level</source>
        <translation>级别</translation>
    </message>
    <message>
        <location filename="../ui/models/DiagnosisTreeModel.cpp" line="186"/>
        <source>Severity</source>
        <translation>严重程度</translation>
    </message>
    <message>
        <location filename="../ui/models/DiagnosisTreeModel.cpp" line="187"/>
        <source>Confidence</source>
        <translation>置信度</translation>
    </message>
    <message>
        <location filename="../ui/models/DiagnosisTreeModel.cpp" line="188"/>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../ui/models/DiagnosisTreeModel.cpp" line="189"/>
        <source>Line</source>
        <translation>行</translation>
    </message>
</context>
<context>
    <name>strata::HostInfoPanel</name>
    <message>
        <location filename="../ui/views/HostInfoPanel.cpp" line="44"/>
        <source>%1 GiB</source>
        <translation>%1 GiB</translation>
    </message>
    <message>
        <location filename="../ui/views/HostInfoPanel.cpp" line="46"/>
        <source>driver %1</source>
        <translation>驱动 %1</translation>
    </message>
    <message>
        <location filename="../ui/views/HostInfoPanel.cpp" line="47"/>
        <source>%1: %2 (%3)</source>
        <translation>%1：%2（%3）</translation>
    </message>
    <message>
        <location filename="../ui/views/HostInfoPanel.cpp" line="57"/>
        <source>Connect / refresh</source>
        <translation>连接 / 刷新</translation>
    </message>
    <message>
        <location filename="../ui/views/HostInfoPanel.cpp" line="61"/>
        <source>Start the host&apos;s agent if needed and ask it what it has</source>
        <translation>必要时启动该主机的代理，并查询其环境</translation>
    </message>
    <message>
        <location filename="../ui/views/HostInfoPanel.cpp" line="90"/>
        <source>Agent and toolchain</source>
        <translation>代理与工具链</translation>
    </message>
    <message>
        <location filename="../ui/views/HostInfoPanel.cpp" line="93"/>
        <source>Agent:</source>
        <translation>代理：</translation>
    </message>
    <message>
        <location filename="../ui/views/HostInfoPanel.cpp" line="94"/>
        <source>Python:</source>
        <translation>Python：</translation>
    </message>
    <message>
        <location filename="../ui/views/HostInfoPanel.cpp" line="95"/>
        <source>Triton:</source>
        <translation>Triton：</translation>
    </message>
    <message>
        <location filename="../ui/views/HostInfoPanel.cpp" line="96"/>
        <source>torch:</source>
        <translation>torch：</translation>
    </message>
    <message>
        <location filename="../ui/views/HostInfoPanel.cpp" line="97"/>
        <source>GPUs:</source>
        <translation>GPU：</translation>
    </message>
    <message>
        <location filename="../ui/views/HostInfoPanel.cpp" line="98"/>
        <source>Targets:</source>
        <translation>目标架构：</translation>
    </message>
    <message>
        <location filename="../ui/views/HostInfoPanel.cpp" line="99"/>
        <source>Platform:</source>
        <translation>平台：</translation>
    </message>
    <message>
        <location filename="../ui/views/HostInfoPanel.cpp" line="108"/>
        <source>Measured ceilings</source>
        <translation>实测性能上限</translation>
    </message>
    <message>
        <location filename="../ui/views/HostInfoPanel.cpp" line="109"/>
        <source>Measure ceilings</source>
        <translation>测量性能上限</translation>
    </message>
    <message>
        <location filename="../ui/views/HostInfoPanel.cpp" line="110"/>
        <source>Copy bandwidth and matmul rates of the host&apos;s GPU (needs torch); measured once per host, then read from its cache</source>
        <translation>该主机 GPU 的拷贝带宽和矩阵乘速率（需要 torch）；每台主机测量一次，之后从缓存读取</translation>
    </message>
    <message>
        <location filename="../ui/views/HostInfoPanel.cpp" line="112"/>
        <source>Measure again (ignore the cache)</source>
        <translation>重新测量（忽略缓存）</translation>
    </message>
    <message>
        <location filename="../ui/views/HostInfoPanel.cpp" line="118"/>
        <source>Ceiling</source>
        <translation>上限</translation>
    </message>
    <message>
        <location filename="../ui/views/HostInfoPanel.cpp" line="118"/>
        <source>Measured</source>
        <translation>实测值</translation>
    </message>
    <message>
        <location filename="../ui/views/HostInfoPanel.cpp" line="146"/>
        <source>&lt;b&gt;local&lt;/b&gt; (this machine)</source>
        <translation>&lt;b&gt;local&lt;/b&gt;（本机）</translation>
    </message>
    <message>
        <location filename="../ui/views/HostInfoPanel.cpp" line="147"/>
        <source>&lt;b&gt;%1&lt;/b&gt; over SSH</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;（通过 SSH）</translation>
    </message>
    <message>
        <location filename="../ui/views/HostInfoPanel.cpp" line="148"/>
        <source>Agent command: %1</source>
        <translation>代理命令：%1</translation>
    </message>
    <message>
        <location filename="../ui/views/HostInfoPanel.cpp" line="151"/>
        <location filename="../ui/views/HostInfoPanel.cpp" line="169"/>
        <location filename="../ui/views/HostInfoPanel.cpp" line="242"/>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <location filename="../ui/views/HostInfoPanel.cpp" line="167"/>
        <source>%1 (protocol %2)</source>
        <translation>%1（协议 %2）</translation>
    </message>
    <message>
        <location filename="../ui/views/HostInfoPanel.cpp" line="170"/>
        <source>not installed</source>
        <translation>未安装</translation>
    </message>
    <message>
        <location filename="../ui/views/HostInfoPanel.cpp" line="172"/>
        <source>not installed (ceilings need it)</source>
        <translation>未安装（测量性能上限需要它）</translation>
    </message>
    <message>
        <location filename="../ui/views/HostInfoPanel.cpp" line="176"/>
        <source>none found</source>
        <translation>未发现</translation>
    </message>
    <message>
        <location filename="../ui/views/HostInfoPanel.cpp" line="179"/>
        <source>%1 (default %2)</source>
        <translation>%1（默认 %2）</translation>
    </message>
    <message>
        <location filename="../ui/views/HostInfoPanel.cpp" line="192"/>
        <source>Measuring ... (a first measurement takes about a minute)</source>
        <translation>正在测量……（首次测量约需一分钟）</translation>
    </message>
    <message>
        <location filename="../ui/views/HostInfoPanel.cpp" line="201"/>
        <source>This host has no GPU: ceilings need one.</source>
        <translation>该主机没有 GPU：测量性能上限需要 GPU。</translation>
    </message>
    <message>
        <location filename="../ui/views/HostInfoPanel.cpp" line="202"/>
        <source>Not measured yet.</source>
        <translation>尚未测量。</translation>
    </message>
    <message>
        <location filename="../ui/views/HostInfoPanel.cpp" line="214"/>
        <source>Copy bandwidth</source>
        <translation>拷贝带宽</translation>
    </message>
    <message>
        <location filename="../ui/views/HostInfoPanel.cpp" line="216"/>
        <source>Matmul %1</source>
        <translation>矩阵乘 %1</translation>
    </message>
    <message>
        <location filename="../ui/views/HostInfoPanel.cpp" line="244"/>
        <source>%1: cached, from %2</source>
        <translation>%1：缓存结果，来自 %2</translation>
    </message>
    <message>
        <location filename="../ui/views/HostInfoPanel.cpp" line="245"/>
        <source>%1: measured just now in %2 s</source>
        <translation>%1：刚刚测量，用时 %2 秒</translation>
    </message>
</context>
<context>
    <name>strata::HostProbe</name>
    <message>
        <location filename="../ui/models/HostProbe.cpp" line="65"/>
        <source>no answer to %1 within %2 s</source>
        <translation>%2 秒内未收到 %1 的应答</translation>
    </message>
    <message>
        <location filename="../ui/models/HostProbe.cpp" line="73"/>
        <location filename="../ui/models/HostProbe.cpp" line="87"/>
        <source>cannot start the agent on %1: %2</source>
        <translation>无法在 %1 上启动代理：%2</translation>
    </message>
</context>
<context>
    <name>strata::HostReport</name>
    <message>
        <location filename="../ui/models/HostReport.cpp" line="72"/>
        <source>the info reply is not a JSON object</source>
        <translation>info 应答不是 JSON 对象</translation>
    </message>
    <message>
        <location filename="../ui/models/HostReport.cpp" line="74"/>
        <source>the info reply has no python version</source>
        <translation>info 应答中没有 Python 版本</translation>
    </message>
    <message>
        <location filename="../ui/models/HostReport.cpp" line="95"/>
        <source>the ceilings reply has no &quot;ceilings&quot; object</source>
        <translation>ceilings 应答中没有 &quot;ceilings&quot; 对象</translation>
    </message>
    <message>
        <location filename="../ui/models/HostReport.cpp" line="97"/>
        <source>the ceilings reply has no copy_bandwidth_gbs number</source>
        <translation>ceilings 应答中没有 copy_bandwidth_gbs 数值</translation>
    </message>
    <message>
        <location filename="../ui/models/HostReport.cpp" line="107"/>
        <source>the ceilings reply has no matmul_tflops rates</source>
        <translation>ceilings 应答中没有 matmul_tflops 速率</translation>
    </message>
    <message>
        <location filename="../ui/models/HostReport.cpp" line="118"/>
        <source>torch is not installed for the agent&apos;s Python on this host: ceilings need torch and a GPU.</source>
        <translation>该主机上代理所用的 Python 未安装 torch：测量性能上限需要 torch 和 GPU。</translation>
    </message>
    <message>
        <location filename="../ui/models/HostReport.cpp" line="121"/>
        <source>torch on this host sees no GPU (check CUDA_VISIBLE_DEVICES and the driver): ceilings need one.</source>
        <translation>该主机上的 torch 看不到 GPU（请检查 CUDA_VISIBLE_DEVICES 和驱动）：测量性能上限需要 GPU。</translation>
    </message>
    <message>
        <location filename="../ui/models/HostReport.cpp" line="124"/>
        <source>no GPU on this host: ceilings need one.</source>
        <translation>该主机没有 GPU：测量性能上限需要 GPU。</translation>
    </message>
    <message>
        <location filename="../ui/models/HostReport.cpp" line="126"/>
        <source>this agent does not know the ceilings method: update strata_agent on the host.</source>
        <translation>该代理不支持 ceilings 方法：请更新主机上的 strata_agent。</translation>
    </message>
    <message>
        <location filename="../ui/models/HostReport.cpp" line="128"/>
        <source>the measurement ran past its time limit.</source>
        <translation>测量超出了时间限制。</translation>
    </message>
    <message>
        <location filename="../ui/models/HostReport.cpp" line="130"/>
        <source>the agent stopped before it answered.</source>
        <translation>代理在应答前已停止。</translation>
    </message>
    <message>
        <location filename="../ui/models/HostReport.cpp" line="132"/>
        <source>the ceilings could not be measured.</source>
        <translation>无法测量性能上限。</translation>
    </message>
    <message>
        <location filename="../ui/models/HostReport.cpp" line="133"/>
        <source>%1
Agent: %2</source>
        <translation>%1
代理：%2</translation>
    </message>
    <message>
        <location filename="../ui/models/HostReport.cpp" line="138"/>
        <source>%1 GB/s</source>
        <translation>%1 GB/s</translation>
    </message>
    <message>
        <location filename="../ui/models/HostReport.cpp" line="143"/>
        <source>%1 TFLOP/s</source>
        <translation>%1 TFLOP/s</translation>
    </message>
</context>
<context>
    <name>strata::HostSettings</name>
    <message>
        <location filename="../ui/models/HostSettings.cpp" line="51"/>
        <source>the host name is empty</source>
        <translation>主机名为空</translation>
    </message>
    <message>
        <location filename="../ui/models/HostSettings.cpp" line="53"/>
        <source>a host name cannot start with &apos;-&apos; (ssh would read it as an option)</source>
        <translation>主机名不能以 &apos;-&apos; 开头（ssh 会把它当作选项）</translation>
    </message>
    <message>
        <location filename="../ui/models/HostSettings.cpp" line="56"/>
        <source>a host name may hold only letters, digits and . _ - @ : [ ] %</source>
        <translation>主机名只能包含字母、数字和 . _ - @ : [ ] %</translation>
    </message>
    <message>
        <location filename="../ui/models/HostSettings.cpp" line="60"/>
        <source>this looks like user:password@host; give only user@host or an ssh alias (passwords are never stored)</source>
        <translation>这看起来像 user:password@host；请只填写 user@host 或 ssh 别名（从不保存密码）</translation>
    </message>
    <message>
        <location filename="../ui/models/HostSettings.cpp" line="155"/>
        <source>%1 is already in the list</source>
        <translation>%1 已在列表中</translation>
    </message>
</context>
<context>
    <name>strata::HostsDialog</name>
    <message>
        <location filename="../ui/views/HostsDialog.cpp" line="28"/>
        <source>Hosts</source>
        <translation>主机</translation>
    </message>
    <message>
        <location filename="../ui/views/HostsDialog.cpp" line="59"/>
        <source>ssh alias or user@host</source>
        <translation>ssh 别名或 user@host</translation>
    </message>
    <message>
        <location filename="../ui/views/HostsDialog.cpp" line="60"/>
        <source>A Host from ~/.ssh/config or any name ssh accepts; keys come from your ssh agent or config, nothing secret is stored</source>
        <translation>~/.ssh/config 中的 Host，或 ssh 接受的任何名称；密钥来自你的 ssh-agent 或配置，不保存任何机密</translation>
    </message>
    <message>
        <location filename="../ui/views/HostsDialog.cpp" line="62"/>
        <source>Add SSH host</source>
        <translation>添加 SSH 主机</translation>
    </message>
    <message>
        <location filename="../ui/views/HostsDialog.cpp" line="63"/>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <location filename="../ui/views/HostsDialog.cpp" line="64"/>
        <source>Use for compiles</source>
        <translation>用于编译</translation>
    </message>
    <message>
        <location filename="../ui/views/HostsDialog.cpp" line="65"/>
        <source>Compiles from the main window run on this host&apos;s agent</source>
        <translation>主窗口的编译将在该主机的代理上运行</translation>
    </message>
    <message>
        <location filename="../ui/views/HostsDialog.cpp" line="86"/>
        <source>Hosts:</source>
        <translation>主机：</translation>
    </message>
    <message>
        <location filename="../ui/views/HostsDialog.cpp" line="111"/>
        <source>local (this machine)</source>
        <translation>local（本机）</translation>
    </message>
    <message>
        <location filename="../ui/views/HostsDialog.cpp" line="111"/>
        <source>%1 (ssh)</source>
        <translation>%1（ssh）</translation>
    </message>
    <message>
        <location filename="../ui/views/HostsDialog.cpp" line="112"/>
        <source>%1, compiles here</source>
        <translation>%1，编译在此运行</translation>
    </message>
    <message>
        <location filename="../ui/views/HostsDialog.cpp" line="164"/>
        <source>Not connected: press Connect / refresh.</source>
        <translation>未连接：请点击“连接 / 刷新”。</translation>
    </message>
    <message>
        <location filename="../ui/views/HostsDialog.cpp" line="193"/>
        <source>Connected.</source>
        <translation>已连接。</translation>
    </message>
    <message>
        <location filename="../ui/views/HostsDialog.cpp" line="203"/>
        <source>Could not reach the agent.</source>
        <translation>无法连接到代理。</translation>
    </message>
    <message>
        <location filename="../ui/views/HostsDialog.cpp" line="235"/>
        <source>Connecting to %1 ...</source>
        <translation>正在连接 %1 ……</translation>
    </message>
    <message>
        <location filename="../ui/views/HostsDialog.cpp" line="262"/>
        <source>Cannot add &quot;%1&quot;: %2</source>
        <translation>无法添加“%1”：%2</translation>
    </message>
    <message>
        <location filename="../ui/views/HostsDialog.cpp" line="266"/>
        <source>Added %1. Press Connect / refresh to reach its agent.</source>
        <translation>已添加 %1。请点击“连接 / 刷新”连接其代理。</translation>
    </message>
    <message>
        <location filename="../ui/views/HostsDialog.cpp" line="288"/>
        <source>Stopped when the dialog was closed.</source>
        <translation>对话框关闭时已停止。</translation>
    </message>
    <message>
        <location filename="../ui/views/HostsDialog.cpp" line="297"/>
        <source>Compiles now run on %1.</source>
        <translation>编译现在在 %1 上运行。</translation>
    </message>
</context>
<context>
    <name>strata::Language</name>
    <message>
        <location filename="../ui/app/Language.cpp" line="22"/>
        <source>System default</source>
        <translation>跟随系统</translation>
    </message>
</context>
<context>
    <name>strata::LlmSettings</name>
    <message>
        <location filename="../ui/models/LlmSettings.cpp" line="89"/>
        <source>an endpoint needs a name without &apos;/&apos;</source>
        <translation>端点需要一个不含“/”的名称</translation>
    </message>
    <message>
        <location filename="../ui/models/LlmSettings.cpp" line="91"/>
        <source>%1: an endpoint needs a base URL and a model</source>
        <translation>%1：端点需要基础 URL 和模型</translation>
    </message>
    <message>
        <location filename="../ui/models/LlmSettings.cpp" line="126"/>
        <source>%1: the system keyring did not take the key (%2); set the endpoint&apos;s environment variable instead</source>
        <translation>%1：系统密钥环未能保存该密钥（%2）；请改为设置该端点的环境变量</translation>
    </message>
    <message>
        <location filename="../ui/models/LlmSettings.cpp" line="131"/>
        <source>%1: this build has no keyring support; set the endpoint&apos;s environment variable instead</source>
        <translation>%1：此版本不支持密钥环；请改为设置该端点的环境变量</translation>
    </message>
    <message>
        <location filename="../ui/models/LlmSettings.cpp" line="142"/>
        <source>%1: no key in the system keyring (%2)</source>
        <translation>%1：系统密钥环中没有密钥（%2）</translation>
    </message>
    <message>
        <location filename="../ui/models/LlmSettings.cpp" line="145"/>
        <source>%1: this build has no keyring support</source>
        <translation>%1：此版本不支持密钥环</translation>
    </message>
    <message>
        <location filename="../ui/models/LlmSettings.cpp" line="154"/>
        <source>no LLM endpoint named %1</source>
        <translation>没有名为 %1 的 LLM 端点</translation>
    </message>
    <message>
        <location filename="../ui/models/LlmSettings.cpp" line="164"/>
        <source>%1: %2 (and no key in the system keyring)</source>
        <translation>%1：%2（系统密钥环中也没有密钥）</translation>
    </message>
</context>
<context>
    <name>strata::LlmSettingsDialog</name>
    <message>
        <location filename="../ui/views/LlmSettingsDialog.cpp" line="28"/>
        <source>&amp;Save endpoint</source>
        <translation>保存端点(&amp;S)</translation>
    </message>
    <message>
        <location filename="../ui/views/LlmSettingsDialog.cpp" line="29"/>
        <source>&amp;Remove</source>
        <translation>删除(&amp;R)</translation>
    </message>
    <message>
        <location filename="../ui/views/LlmSettingsDialog.cpp" line="30"/>
        <source>Store key in &amp;keyring</source>
        <translation>将密钥存入密钥环(&amp;K)</translation>
    </message>
    <message>
        <location filename="../ui/views/LlmSettingsDialog.cpp" line="33"/>
        <source>LLM Endpoints</source>
        <translation>LLM 端点</translation>
    </message>
    <message>
        <location filename="../ui/views/LlmSettingsDialog.cpp" line="34"/>
        <source>OpenAI-compatible (OpenAI, vLLM, SGLang, Ollama, DeepSeek, DashScope)</source>
        <translation>OpenAI 兼容（OpenAI、vLLM、SGLang、Ollama、DeepSeek、DashScope）</translation>
    </message>
    <message>
        <location filename="../ui/views/LlmSettingsDialog.cpp" line="35"/>
        <source>Anthropic messages</source>
        <translation>Anthropic messages</translation>
    </message>
    <message>
        <location filename="../ui/views/LlmSettingsDialog.cpp" line="37"/>
        <source>paste a key to store it in the system keyring (never saved in settings)</source>
        <translation>粘贴密钥以存入系统密钥环（绝不保存在设置中）</translation>
    </message>
    <message>
        <location filename="../ui/views/LlmSettingsDialog.cpp" line="38"/>
        <source>environment variable with the key, e.g. OPENAI_API_KEY (empty: no key)</source>
        <translation>保存密钥的环境变量，例如 OPENAI_API_KEY（留空：无密钥）</translation>
    </message>
    <message>
        <location filename="../ui/views/LlmSettingsDialog.cpp" line="41"/>
        <source>This build has no keyring support: use the environment variable.</source>
        <translation>此版本不支持密钥环：请使用环境变量。</translation>
    </message>
    <message>
        <location filename="../ui/views/LlmSettingsDialog.cpp" line="45"/>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <location filename="../ui/views/LlmSettingsDialog.cpp" line="46"/>
        <source>API</source>
        <translation>API</translation>
    </message>
    <message>
        <location filename="../ui/views/LlmSettingsDialog.cpp" line="47"/>
        <source>Base URL</source>
        <translation>基础 URL</translation>
    </message>
    <message>
        <location filename="../ui/views/LlmSettingsDialog.cpp" line="48"/>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <location filename="../ui/views/LlmSettingsDialog.cpp" line="49"/>
        <source>Key variable</source>
        <translation>密钥变量</translation>
    </message>
    <message>
        <location filename="../ui/views/LlmSettingsDialog.cpp" line="50"/>
        <source>Key</source>
        <translation>密钥</translation>
    </message>
    <message>
        <location filename="../ui/views/LlmSettingsDialog.cpp" line="132"/>
        <source>Saved %1.</source>
        <translation>已保存 %1。</translation>
    </message>
    <message>
        <location filename="../ui/views/LlmSettingsDialog.cpp" line="139"/>
        <source>Name the endpoint and paste its key first.</source>
        <translation>请先填写端点名称并粘贴密钥。</translation>
    </message>
    <message>
        <location filename="../ui/views/LlmSettingsDialog.cpp" line="144"/>
        <source>The key of %1 is in the system keyring.</source>
        <translation>%1 的密钥已存入系统密钥环。</translation>
    </message>
</context>
<context>
    <name>strata::MainWindow</name>
    <message>
        <location filename="../ui/app/MainWindow.cpp" line="52"/>
        <source>Strata</source>
        <translation>Strata</translation>
    </message>
    <message>
        <location filename="../ui/app/MainWindow.cpp" line="60"/>
        <source>Open a kernel (Ctrl+O) or a sample (Ctrl+Shift+O).</source>
        <translation>打开内核（Ctrl+O）或示例（Ctrl+Shift+O）。</translation>
    </message>
    <message>
        <location filename="../ui/app/MainWindow.cpp" line="62"/>
        <source>No compile loaded.</source>
        <translation>尚未加载编译结果。</translation>
    </message>
    <message>
        <location filename="../ui/app/MainWindow.cpp" line="74"/>
        <source>Compile failed: %1</source>
        <translation>编译失败：%1</translation>
    </message>
    <message>
        <location filename="../ui/app/MainWindow.cpp" line="75"/>
        <source>Compile failed</source>
        <translation>编译失败</translation>
    </message>
    <message>
        <location filename="../ui/app/MainWindow.cpp" line="101"/>
        <source>Loading %1 ...</source>
        <translation>正在加载 %1 ...</translation>
    </message>
    <message>
        <location filename="../ui/app/MainWindow.cpp" line="111"/>
        <source>no spec file for this kernel: put NAME.VARIANT.spec.json next to it (see suites/samples/README.md) or pass --spec</source>
        <translation>此内核没有规格文件：请在其旁边放置 NAME.VARIANT.spec.json（见 suites/samples/README.md），或使用 --spec 指定</translation>
    </message>
    <message>
        <location filename="../ui/app/MainWindow.cpp" line="113"/>
        <source>Cannot compile</source>
        <translation>无法编译</translation>
    </message>
    <message>
        <location filename="../ui/app/MainWindow.cpp" line="119"/>
        <source>Cannot read the spec</source>
        <translation>无法读取规格</translation>
    </message>
    <message>
        <location filename="../ui/app/MainWindow.cpp" line="125"/>
        <source>Starting the agent for %1 ...</source>
        <translation>正在为 %1 启动代理 ...</translation>
    </message>
    <message>
        <location filename="../ui/app/MainWindow.cpp" line="136"/>
        <source>Recompiling %1 ...</source>
        <translation>正在重新编译 %1 ...</translation>
    </message>
    <message>
        <location filename="../ui/app/MainWindow.cpp" line="140"/>
        <source>Nothing to recompile: open a kernel or a sample first.</source>
        <translation>没有可重新编译的内容：请先打开内核或示例。</translation>
    </message>
    <message>
        <location filename="../ui/app/MainWindow.cpp" line="146"/>
        <source>Open a kernel or a compile</source>
        <translation>打开内核或编译结果</translation>
    </message>
    <message>
        <location filename="../ui/app/MainWindow.cpp" line="147"/>
        <source>Kernels and compiles (*.py compile.json *.json);;Triton kernels (*.py);;Compiles (compile.json)</source>
        <translation>内核和编译结果 (*.py compile.json *.json);;Triton 内核 (*.py);;编译结果 (compile.json)</translation>
    </message>
    <message>
        <location filename="../ui/app/MainWindow.cpp" line="164"/>
        <source>Choose a spec</source>
        <translation>选择规格</translation>
    </message>
    <message>
        <location filename="../ui/app/MainWindow.cpp" line="165"/>
        <source>Launch specialisation:</source>
        <translation>启动特化：</translation>
    </message>
    <message>
        <location filename="../ui/app/MainWindow.cpp" line="170"/>
        <source>Spec for %1</source>
        <translation>%1 的规格</translation>
    </message>
    <message>
        <location filename="../ui/app/MainWindow.cpp" line="171"/>
        <source>Specs (*.spec.json *.json)</source>
        <translation>规格 (*.spec.json *.json)</translation>
    </message>
    <message>
        <location filename="../ui/app/MainWindow.cpp" line="189"/>
        <source>Reading the stages of %1 ...</source>
        <translation>正在读取 %1 的各阶段 ...</translation>
    </message>
    <message>
        <location filename="../ui/app/MainWindow.cpp" line="208"/>
        <source>This compile has no %1 stage.</source>
        <translation>此编译结果没有 %1 阶段。</translation>
    </message>
    <message>
        <location filename="../ui/app/MainWindow.cpp" line="214"/>
        <source>Could not read this stage:
%1</source>
        <translation>无法读取此阶段：
%1</translation>
    </message>
    <message>
        <location filename="../ui/app/MainWindow.cpp" line="222"/>
        <source>%1 (%2) - Strata</source>
        <translation>%1 (%2) - Strata</translation>
    </message>
    <message>
        <location filename="../ui/app/MainWindow.cpp" line="230"/>
        <source>Some stages could not be read</source>
        <translation>部分阶段无法读取</translation>
    </message>
    <message>
        <location filename="../ui/app/MainWindow.cpp" line="237"/>
        <source>Could not load: %1</source>
        <translation>无法加载：%1</translation>
    </message>
    <message>
        <location filename="../ui/app/MainWindow.cpp" line="238"/>
        <source>Could not load the compile</source>
        <translation>无法加载编译结果</translation>
    </message>
    <message>
        <location filename="../ui/app/MainWindow.cpp" line="246"/>
        <source>Line %1: linked lines highlighted in every stage</source>
        <translation>第 %1 行：已在所有阶段高亮关联行</translation>
    </message>
    <message>
        <location filename="../ui/app/MainWindowSuite.cpp" line="31"/>
        <source>Cannot open the suite results</source>
        <translation>无法打开套件结果</translation>
    </message>
    <message>
        <location filename="../ui/app/MainWindowSuite.cpp" line="77"/>
        <source>Open suite results</source>
        <translation>打开套件结果</translation>
    </message>
    <message>
        <location filename="../ui/app/MainWindowSuite.cpp" line="78"/>
        <source>Suite results (*.json)</source>
        <translation>套件结果 (*.json)</translation>
    </message>
    <message>
        <location filename="../ui/app/MainWindowSuite.cpp" line="87"/>
        <source>Cannot export the chart</source>
        <translation>无法导出图表</translation>
    </message>
    <message>
        <location filename="../ui/app/MainWindowSuite.cpp" line="90"/>
        <source>Chart written to %1</source>
        <translation>图表已写入 %1</translation>
    </message>
    <message>
        <location filename="../ui/app/MainWindowSuite.cpp" line="96"/>
        <source>Export the suite chart</source>
        <translation>导出套件图表</translation>
    </message>
    <message>
        <location filename="../ui/app/MainWindowSuite.cpp" line="97"/>
        <source>SVG (*.svg);;PNG (*.png);;PDF (*.pdf)</source>
        <translation>SVG (*.svg);;PNG (*.png);;PDF (*.pdf)</translation>
    </message>
    <message>
        <location filename="../ui/app/MainWindowSuite.cpp" line="126"/>
        <location filename="../ui/app/MainWindowSuite.cpp" line="132"/>
        <location filename="../ui/app/MainWindowSuite.cpp" line="148"/>
        <location filename="../ui/app/MainWindowSuite.cpp" line="156"/>
        <source>Cannot export the report</source>
        <translation>无法导出报告</translation>
    </message>
    <message>
        <location filename="../ui/app/MainWindowSuite.cpp" line="126"/>
        <source>no suite results are open</source>
        <translation>没有打开的套件结果</translation>
    </message>
    <message>
        <location filename="../ui/app/MainWindowSuite.cpp" line="132"/>
        <source>Report written to %1</source>
        <translation>报告已写入 %1</translation>
    </message>
    <message>
        <location filename="../ui/app/MainWindowSuite.cpp" line="138"/>
        <source>Export the suite report</source>
        <translation>导出套件报告</translation>
    </message>
    <message>
        <location filename="../ui/app/MainWindowSuite.cpp" line="105"/>
        <source>HTML (*.html);;PDF (*.pdf);;Markdown (*.md);;JSON (*.json);;CSV (*.csv)</source>
        <translation>HTML (*.html);;PDF (*.pdf);;Markdown (*.md);;JSON (*.json);;CSV (*.csv)</translation>
    </message>
    <message>
        <location filename="../ui/app/MainWindowSuite.cpp" line="148"/>
        <source>select a task in the Suite dock first</source>
        <translation>请先在“套件”停靠窗口中选择一个任务</translation>
    </message>
    <message>
        <location filename="../ui/app/MainWindowSuite.cpp" line="157"/>
        <source>Report of %1 written to %2</source>
        <translation>%1 的报告已写入 %2</translation>
    </message>
    <message>
        <location filename="../ui/app/MainWindowSuite.cpp" line="163"/>
        <source>Export the task report</source>
        <translation>导出任务报告</translation>
    </message>
    <message>
        <location filename="../ui/app/MainWindowSuite.cpp" line="173"/>
        <location filename="../ui/app/MainWindowSuite.cpp" line="188"/>
        <source>Cannot export the diagnosis</source>
        <translation>无法导出诊断</translation>
    </message>
    <message>
        <location filename="../ui/app/MainWindowSuite.cpp" line="173"/>
        <source>open or compile a kernel first</source>
        <translation>请先打开或编译一个内核</translation>
    </message>
    <message>
        <location filename="../ui/app/MainWindowSuite.cpp" line="180"/>
        <source>cannot write: %1</source>
        <translation>无法写入：%1</translation>
    </message>
    <message>
        <location filename="../ui/app/MainWindowSuite.cpp" line="189"/>
        <source>Diagnosis of %1 written to %2</source>
        <translation>%1 的诊断已写入 %2</translation>
    </message>
    <message>
        <location filename="../ui/app/MainWindowSuite.cpp" line="195"/>
        <source>Export the diagnosis</source>
        <translation>导出诊断</translation>
    </message>
    <message>
        <location filename="../ui/app/MainWindowSuite.cpp" line="196"/>
        <source>HTML report (*.html);;SARIF (*.sarif);;Diagnosis JSON (*.json);;PDF (*.pdf);;Markdown (*.md)</source>
        <translation>HTML 报告 (*.html);;SARIF (*.sarif);;诊断 JSON (*.json);;PDF (*.pdf);;Markdown (*.md)</translation>
    </message>
    <message>
        <location filename="../ui/app/MainWindowSuite.cpp" line="205"/>
        <source>Cannot open the suite folder</source>
        <translation>无法打开套件文件夹</translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/app/MainWindowSuite.cpp" line="213"/>
        <source>%1: %n task(s); start a run in the Run dock</source>
        <translation>
            <numerusform>%1：%n 个任务；在“运行”停靠窗口中开始运行</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../ui/app/MainWindowSuite.cpp" line="219"/>
        <source>Open a suite folder</source>
        <translation>打开套件文件夹</translation>
    </message>
    <message>
        <location filename="../ui/app/MainWindow.cpp" line="305"/>
        <source>No kernel</source>
        <translation>无内核</translation>
    </message>
    <message>
        <location filename="../ui/app/MainWindow.cpp" line="312"/>
        <source>Kernel: %1</source>
        <translation>内核：%1</translation>
    </message>
    <message>
        <location filename="../ui/app/MainWindow.cpp" line="313"/>
        <source>Target: %1</source>
        <translation>目标：%1</translation>
    </message>
    <message>
        <location filename="../ui/app/MainWindow.cpp" line="317"/>
        <source>Registers: unknown</source>
        <translation>寄存器：未知</translation>
    </message>
    <message>
        <location filename="../ui/app/MainWindow.cpp" line="318"/>
        <source>Registers: %1, spills: %2 B store / %3 B load</source>
        <translation>寄存器：%1，溢出：存储 %2 B / 加载 %3 B</translation>
    </message>
    <message>
        <location filename="../ui/app/MainWindowLayout.cpp" line="76"/>
        <source>Passes</source>
        <translation>Pass 列表</translation>
    </message>
    <message>
        <location filename="../ui/app/MainWindowLayout.cpp" line="82"/>
        <source>Remarks</source>
        <translation>编译提示</translation>
    </message>
    <message>
        <location filename="../ui/app/MainWindowLayout.cpp" line="87"/>
        <source>Diagnosis</source>
        <translation>诊断</translation>
    </message>
    <message>
        <location filename="../ui/app/MainWindowLayout.cpp" line="108"/>
        <source>Suite</source>
        <translation>套件</translation>
    </message>
    <message>
        <location filename="../ui/app/MainWindowLayout.cpp" line="118"/>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <location filename="../ui/app/MainWindowLayout.cpp" line="138"/>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <location filename="../ui/app/MainWindowLayout.cpp" line="139"/>
        <source>&amp;Open Kernel or Compile...</source>
        <translation>打开内核或编译结果(&amp;O)...</translation>
    </message>
    <message>
        <location filename="../ui/app/MainWindowLayout.cpp" line="141"/>
        <source>Open a kernel (.py with its spec) to compile, or an existing compile.json</source>
        <translation>打开要编译的内核（.py 及其规格），或已有的 compile.json</translation>
    </message>
    <message>
        <location filename="../ui/app/MainWindowLayout.cpp" line="142"/>
        <source>&amp;Samples...</source>
        <translation>示例(&amp;S)...</translation>
    </message>
    <message>
        <location filename="../ui/app/MainWindowLayout.cpp" line="144"/>
        <source>&amp;Recompile</source>
        <translation>重新编译(&amp;R)</translation>
    </message>
    <message>
        <location filename="../ui/app/MainWindowLayout.cpp" line="146"/>
        <source>Export &amp;Diagnosis...</source>
        <translation>导出诊断(&amp;D)...</translation>
    </message>
    <message>
        <location filename="../ui/app/MainWindowLayout.cpp" line="148"/>
        <source>The open compile&apos;s findings: HTML/PDF/Markdown report with IR excerpts, SARIF, or JSON</source>
        <translation>当前编译的发现：带 IR 摘录的 HTML/PDF/Markdown 报告、SARIF 或 JSON</translation>
    </message>
    <message>
        <location filename="../ui/app/MainWindowLayout.cpp" line="149"/>
        <source>Attach GPU &amp;Measurements...</source>
        <translation>附加 GPU 测量(&amp;M)...</translation>
    </message>
    <message>
        <location filename="../ui/app/MainWindowLayout.cpp" line="151"/>
        <source>Saved time/profile/ceilings replies of a GPU host: the diagnosis ranks findings by measured cost</source>
        <translation>GPU 主机保存的 time/profile/ceilings 回复：诊断按实测开销对发现排序</translation>
    </message>
    <message>
        <location filename="../ui/app/MainWindowLayout.cpp" line="153"/>
        <source>Open Suite &amp;Results...</source>
        <translation>打开套件结果(&amp;R)...</translation>
    </message>
    <message>
        <location filename="../ui/app/MainWindowLayout.cpp" line="155"/>
        <source>Open the results of strata-cli bench (--json) in the Suite dock</source>
        <translation>在“套件”停靠窗口中打开 strata-cli bench (--json) 的结果</translation>
    </message>
    <message>
        <location filename="../ui/app/MainWindowLayout.cpp" line="156"/>
        <source>Open Suite &amp;Folder...</source>
        <translation>打开套件文件夹(&amp;F)...</translation>
    </message>
    <message>
        <location filename="../ui/app/MainWindowLayout.cpp" line="157"/>
        <source>List a suite&apos;s tasks and get it ready to run in the Run dock</source>
        <translation>列出套件的任务，并在“运行”停靠窗口中准备运行</translation>
    </message>
    <message>
        <location filename="../ui/app/MainWindowLayout.cpp" line="158"/>
        <source>Recent Suite Results</source>
        <translation>最近的套件结果</translation>
    </message>
    <message>
        <location filename="../ui/app/MainWindowLayout.cpp" line="160"/>
        <source>&amp;Export Suite Chart...</source>
        <translation>导出套件图表(&amp;E)...</translation>
    </message>
    <message>
        <location filename="../ui/app/MainWindowLayout.cpp" line="162"/>
        <source>Export Suite Re&amp;port...</source>
        <translation>导出套件报告(&amp;P)...</translation>
    </message>
    <message>
        <location filename="../ui/app/MainWindowLayout.cpp" line="164"/>
        <source>The open suite&apos;s report: HTML with inline charts, PDF, Markdown, JSON or CSV</source>
        <translation>当前套件的报告：带内嵌图表的 HTML、PDF、Markdown、JSON 或 CSV</translation>
    </message>
    <message>
        <location filename="../ui/app/MainWindowLayout.cpp" line="165"/>
        <source>Export &amp;Task Report...</source>
        <translation>导出任务报告(&amp;T)...</translation>
    </message>
    <message>
        <location filename="../ui/app/MainWindowLayout.cpp" line="167"/>
        <source>The selected task&apos;s report: timings, every candidate and the winning change</source>
        <translation>所选任务的报告：计时、每个候选以及获胜的改动</translation>
    </message>
    <message>
        <location filename="../ui/app/MainWindowLayout.cpp" line="169"/>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <location filename="../ui/app/MainWindowLayout.cpp" line="172"/>
        <source>&amp;Settings</source>
        <translation>设置(&amp;S)</translation>
    </message>
    <message>
        <location filename="../ui/app/MainWindowLayout.cpp" line="173"/>
        <source>&amp;LLM Endpoints...</source>
        <translation>LLM 端点(&amp;L)...</translation>
    </message>
    <message>
        <location filename="../ui/app/MainWindowLayout.cpp" line="174"/>
        <source>Lan&amp;guage</source>
        <translation>语言(&amp;G)</translation>
    </message>
    <message>
        <location filename="../ui/app/MainWindowLayout.cpp" line="179"/>
        <source>Language set to %1: it applies when Strata starts next.</source>
        <translation>语言已设为 %1：下次启动 Strata 时生效。</translation>
    </message>
    <message>
        <location filename="../ui/app/MainWindowLayout.cpp" line="187"/>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <location filename="../ui/app/MainWindowLayout.cpp" line="190"/>
        <source>Focus %1</source>
        <translation>聚焦 %1</translation>
    </message>
    <message>
        <location filename="../ui/app/MainWindow.cpp" line="221"/>
        <source>Remarks (%1)</source>
        <translation>编译提示（%1）</translation>
    </message>
    <message>
        <location filename="../ui/app/MainWindow.cpp" line="225"/>
        <source>Loaded %1: %2 stages</source>
        <translation>已加载 %1：%2 个阶段</translation>
    </message>
    <message>
        <location filename="../ui/app/MainWindow.cpp" line="227"/>
        <source>Loaded %1; stages that could not be read: %2</source>
        <translation>已加载 %1；无法读取的阶段：%2</translation>
    </message>
    <message>
        <location filename="../ui/app/MainWindow.cpp" line="265"/>
        <source>Attach GPU measurements</source>
        <translation>附加 GPU 测量</translation>
    </message>
    <message>
        <location filename="../ui/app/MainWindow.cpp" line="265"/>
        <source>Saved replies of strata-cli time, profile, ceilings (*.json)</source>
        <translation>strata-cli time、profile、ceilings 保存的回复 (*.json)</translation>
    </message>
    <message>
        <location filename="../ui/app/MainWindow.cpp" line="270"/>
        <source>Cannot attach the measurements</source>
        <translation>无法附加测量</translation>
    </message>
    <message>
        <location filename="../ui/app/MainWindow.cpp" line="275"/>
        <source>Measurements attached: %1</source>
        <translation>已附加测量：%1</translation>
    </message>
    <message>
        <location filename="../ui/app/MainWindow.cpp" line="324"/>
        <source>1 remark</source>
        <translation>1 条提示</translation>
    </message>
    <message>
        <location filename="../ui/app/MainWindow.cpp" line="324"/>
        <source>%1 remarks</source>
        <translation>%1 条提示</translation>
    </message>
    <message>
        <location filename="../ui/app/MainWindowHosts.cpp" line="22"/>
        <source>&amp;Host</source>
        <translation>主机(&amp;H)</translation>
    </message>
    <message>
        <location filename="../ui/app/MainWindowHosts.cpp" line="35"/>
        <source>&amp;Hosts...</source>
        <translation>主机(&amp;H)...</translation>
    </message>
    <message>
        <location filename="../ui/app/MainWindowHosts.cpp" line="37"/>
        <source>Add SSH hosts, see their Triton, torch and GPUs, measure their ceilings</source>
        <translation>添加 SSH 主机，查看其 Triton、torch 和 GPU，测量其性能上限</translation>
    </message>
    <message>
        <location filename="../ui/app/MainWindowHosts.cpp" line="42"/>
        <source>Compile on local</source>
        <translation>在本机编译</translation>
    </message>
    <message>
        <location filename="../ui/app/MainWindowHosts.cpp" line="42"/>
        <source>Compile on %1 (ssh)</source>
        <translation>在 %1 上编译（ssh）</translation>
    </message>
    <message>
        <location filename="../ui/app/MainWindowHosts.cpp" line="55"/>
        <source>Host: %1</source>
        <translation>主机：%1</translation>
    </message>
    <message>
        <location filename="../ui/app/MainWindowHosts.cpp" line="56"/>
        <source>Compiles run on this host&apos;s agent: %1</source>
        <translation>编译在该主机的代理上运行：%1</translation>
    </message>
</context>
<context>
    <name>strata::PassListModel</name>
    <message>
        <location filename="../ui/models/PassListModel.cpp" line="74"/>
        <source>%1 (%2) on %3
Shows the IR before this pass and what the pass changed.</source>
        <translation>%1 (%2)，作用于 %3
显示此 pass 之前的 IR 以及它所做的改动。</translation>
    </message>
    <message>
        <location filename="../ui/models/PassListModel.cpp" line="101"/>
        <source>#</source>
        <translation>#</translation>
    </message>
    <message>
        <location filename="../ui/models/PassListModel.cpp" line="102"/>
        <source>Pass</source>
        <translation>Pass</translation>
    </message>
    <message>
        <location filename="../ui/models/PassListModel.cpp" line="103"/>
        <source>Stage</source>
        <translation>阶段</translation>
    </message>
    <message>
        <location filename="../ui/models/PassListModel.cpp" line="104"/>
        <source>Name</source>
        <translation>名称</translation>
    </message>
</context>
<context>
    <name>strata::PassPanel</name>
    <message>
        <location filename="../ui/views/PassPanel.cpp" line="33"/>
        <source>%1: cannot read pass dump: %2</source>
        <translation>%1：无法读取 pass 转储：%2</translation>
    </message>
    <message>
        <location filename="../ui/views/PassPanel.cpp" line="101"/>
        <location filename="../ui/views/PassPanel.cpp" line="135"/>
        <source>Select a pass to see what it changed.</source>
        <translation>选择一个 pass 查看它的改动。</translation>
    </message>
    <message>
        <location filename="../ui/views/PassPanel.cpp" line="102"/>
        <source>Diff (what the pass changed)</source>
        <translation>差异（pass 的改动）</translation>
    </message>
    <message>
        <location filename="../ui/views/PassPanel.cpp" line="103"/>
        <source>IR before the pass</source>
        <translation>pass 之前的 IR</translation>
    </message>
    <message>
        <location filename="../ui/views/PassPanel.cpp" line="133"/>
        <location filename="../ui/views/PassPanel.cpp" line="134"/>
        <source>This compile has no pass dumps.</source>
        <translation>此编译结果没有 pass 转储。</translation>
    </message>
    <message>
        <location filename="../ui/views/PassPanel.cpp" line="170"/>
        <source>Loading %1 ...</source>
        <translation>正在加载 %1 ...</translation>
    </message>
    <message>
        <location filename="../ui/views/PassPanel.cpp" line="194"/>
        <source>The last pass has no later dump to compare with.</source>
        <translation>最后一个 pass 没有可供比较的后续转储。</translation>
    </message>
    <message>
        <location filename="../ui/views/PassPanel.cpp" line="196"/>
        <source>%1 left the IR unchanged.</source>
        <translation>%1 未改变 IR。</translation>
    </message>
    <message>
        <location filename="../ui/views/PassPanel.cpp" line="197"/>
        <source>&lt;b&gt;%1&lt;/b&gt; (%2): +%3 / -%4 lines, compared with the IR before %5</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; (%2)：+%3 / -%4 行，与 %5 之前的 IR 比较</translation>
    </message>
    <message>
        <location filename="../ui/views/PassPanel.cpp" line="202"/>
        <source>&lt;b&gt;%1&lt;/b&gt; (%2)</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; (%2)</translation>
    </message>
    <message>
        <location filename="../ui/views/PassPanel.cpp" line="28"/>
        <source>This dump was not kept with the compile (omitted to save space).</source>
        <translation>此转储未随编译结果保存（为节省空间而省略）。</translation>
    </message>
    <message>
        <location filename="../ui/views/PassPanel.cpp" line="136"/>
        <source>1 pass</source>
        <translation>1 个 pass</translation>
    </message>
    <message>
        <location filename="../ui/views/PassPanel.cpp" line="136"/>
        <source>%1 passes</source>
        <translation>%1 个 pass</translation>
    </message>
</context>
<context>
    <name>strata::RunPanel</name>
    <message>
        <location filename="../ui/views/RunPanel.cpp" line="51"/>
        <source>Checks only: verify candidates under Triton&apos;s interpreter (no GPU, nothing timed)</source>
        <translation>仅检查：在 Triton 解释器下验证候选（无 GPU，不计时）</translation>
    </message>
    <message>
        <location filename="../ui/views/RunPanel.cpp" line="52"/>
        <source>Ask me for rewrites too: copy each prompt to any chat, paste the answer back</source>
        <translation>也向我请求改写：把每个提示复制到任意聊天工具，再把回答粘贴回来</translation>
    </message>
    <message>
        <location filename="../ui/views/RunPanel.cpp" line="54"/>
        <source>&amp;Start</source>
        <translation>开始(&amp;S)</translation>
    </message>
    <message>
        <location filename="../ui/views/RunPanel.cpp" line="55"/>
        <source>&amp;Cancel</source>
        <translation>取消(&amp;C)</translation>
    </message>
    <message>
        <location filename="../ui/views/RunPanel.cpp" line="60"/>
        <source>Suite folder (KernelBench-format tasks), e.g. suites/hopper-core</source>
        <translation>套件文件夹（KernelBench 格式的任务），例如 suites/hopper-core</translation>
    </message>
    <message>
        <location filename="../ui/views/RunPanel.cpp" line="61"/>
        <source>Browse...</source>
        <translation>浏览...</translation>
    </message>
    <message>
        <location filename="../ui/views/RunPanel.cpp" line="63"/>
        <source>Suite folder</source>
        <translation>套件文件夹</translation>
    </message>
    <message>
        <location filename="../ui/views/RunPanel.cpp" line="71"/>
        <source>Suite</source>
        <translation>套件</translation>
    </message>
    <message>
        <location filename="../ui/views/RunPanel.cpp" line="72"/>
        <source>Rounds per task</source>
        <translation>每个任务的轮数</translation>
    </message>
    <message>
        <location filename="../ui/views/RunPanel.cpp" line="73"/>
        <source>Candidates per round</source>
        <translation>每轮候选数</translation>
    </message>
    <message>
        <location filename="../ui/views/RunPanel.cpp" line="74"/>
        <source>Tasks at a time</source>
        <translation>同时运行的任务数</translation>
    </message>
    <message>
        <location filename="../ui/views/RunPanel.cpp" line="76"/>
        <source>LLM</source>
        <translation>LLM</translation>
    </message>
    <message>
        <location filename="../ui/views/RunPanel.cpp" line="103"/>
        <source>Idle.</source>
        <translation>空闲。</translation>
    </message>
    <message>
        <location filename="../ui/views/RunPanel.cpp" line="126"/>
        <source>No LLM (recipes only)</source>
        <translation>不使用 LLM（仅配方）</translation>
    </message>
    <message>
        <location filename="../ui/views/RunPanel.cpp" line="158"/>
        <source>a run is already going</source>
        <translation>已有运行在进行中</translation>
    </message>
    <message>
        <location filename="../ui/views/RunPanel.cpp" line="161"/>
        <source>%1: no such suite folder</source>
        <translation>%1：没有此套件文件夹</translation>
    </message>
    <message>
        <location filename="../ui/views/RunPanel.cpp" line="163"/>
        <source>no host agent or backend plugin to run on</source>
        <translation>没有可运行的主机代理或后端插件</translation>
    </message>
    <message>
        <location filename="../ui/views/RunPanel.cpp" line="220"/>
        <source>Running %1 on %2 ...</source>
        <translation>正在 %2 上运行 %1 ...</translation>
    </message>
    <message>
        <location filename="../ui/views/RunPanel.cpp" line="230"/>
        <source>Rewrite request waiting for you</source>
        <translation>等待你回答的改写请求</translation>
    </message>
    <message>
        <location filename="../ui/views/RunPanel.cpp" line="234"/>
        <source>Paste the answer here: the whole new task file in a ```python block</source>
        <translation>在此粘贴回答：完整的新任务文件，放在 ```python 代码块中</translation>
    </message>
    <message>
        <location filename="../ui/views/RunPanel.cpp" line="235"/>
        <source>Copy prompt</source>
        <translation>复制提示</translation>
    </message>
    <message>
        <location filename="../ui/views/RunPanel.cpp" line="236"/>
        <source>Submit answer</source>
        <translation>提交回答</translation>
    </message>
    <message>
        <location filename="../ui/views/RunPanel.cpp" line="239"/>
        <source>Prompt copied to the clipboard.</source>
        <translation>提示已复制到剪贴板。</translation>
    </message>
    <message>
        <location filename="../ui/views/RunPanel.cpp" line="243"/>
        <source>Answer handed to the loop.</source>
        <translation>回答已交给优化循环。</translation>
    </message>
    <message>
        <location filename="../ui/views/RunPanel.cpp" line="270"/>
        <source>A rewrite request waits for your answer (%1)</source>
        <translation>有一个改写请求在等待你的回答（%1）</translation>
    </message>
    <message>
        <location filename="../ui/views/RunPanel.cpp" line="277"/>
        <source>no rewrite request is waiting</source>
        <translation>没有等待中的改写请求</translation>
    </message>
    <message>
        <location filename="../ui/views/RunPanel.cpp" line="279"/>
        <source>the answer is empty</source>
        <translation>回答为空</translation>
    </message>
    <message>
        <location filename="../ui/views/RunPanel.cpp" line="284"/>
        <source>%1: cannot write the answer: %2</source>
        <translation>%1：无法写入回答：%2</translation>
    </message>
    <message>
        <location filename="../ui/views/RunPanel.cpp" line="295"/>
        <source>Cancelling: each task finishes and stores the step it is in ...</source>
        <translation>正在取消：每个任务完成并保存当前步骤 ...</translation>
    </message>
    <message>
        <location filename="../ui/views/RunPanel.cpp" line="312"/>
        <source>%1 of %2 tasks finished</source>
        <translation>已完成 %1 / %2 个任务</translation>
    </message>
    <message>
        <location filename="../ui/views/RunPanel.cpp" line="328"/>
        <source>%1: cannot write the results: %2</source>
        <translation>%1：无法写入结果：%2</translation>
    </message>
    <message>
        <location filename="../ui/views/RunPanel.cpp" line="333"/>
        <source>Cancelled; finished steps are stored (%1)</source>
        <translation>已取消；已完成的步骤均已保存（%1）</translation>
    </message>
    <message>
        <location filename="../ui/views/RunPanel.cpp" line="334"/>
        <source>Finished: geomean %1x over %2 tasks (%3)</source>
        <translation>完成：%2 个任务的几何平均 %1x（%3）</translation>
    </message>
</context>
<context>
    <name>strata::SamplesDialog</name>
    <message>
        <location filename="../ui/app/SamplesDialog.cpp" line="20"/>
        <source>Open a sample kernel</source>
        <translation>打开示例内核</translation>
    </message>
    <message>
        <location filename="../ui/app/SamplesDialog.cpp" line="27"/>
        <source>Compile</source>
        <translation>编译</translation>
    </message>
    <message>
        <location filename="../ui/app/SamplesDialog.cpp" line="34"/>
        <source>No samples found in %1.</source>
        <translation>在 %1 中未找到示例。</translation>
    </message>
    <message>
        <location filename="../ui/app/SamplesDialog.cpp" line="35"/>
        <source>Samples in %1:</source>
        <translation>%1 中的示例：</translation>
    </message>
    <message>
        <location filename="../ui/app/SamplesDialog.cpp" line="61"/>
        <source>Kernel &lt;b&gt;%1&lt;/b&gt;, target %2, num_warps %3, num_stages %4</source>
        <translation>内核 &lt;b&gt;%1&lt;/b&gt;，目标 %2，num_warps %3，num_stages %4</translation>
    </message>
</context>
<context>
    <name>strata::SpeedupPlot</name>
    <message>
        <location filename="../ui/views/SpeedupPlot.cpp" line="107"/>
        <source>speedup vs initial (log)</source>
        <translation>相对初始版本的加速比（对数）</translation>
    </message>
    <message>
        <location filename="../ui/views/SpeedupPlot.cpp" line="132"/>
        <source>faster</source>
        <translation>更快</translation>
    </message>
    <message>
        <location filename="../ui/views/SpeedupPlot.cpp" line="133"/>
        <source>no gain</source>
        <translation>无提升</translation>
    </message>
    <message>
        <location filename="../ui/views/SpeedupPlot.cpp" line="134"/>
        <location filename="../ui/views/SpeedupPlot.cpp" line="237"/>
        <source>failed / no time</source>
        <translation>失败 / 无计时</translation>
    </message>
    <message>
        <location filename="../ui/views/SpeedupPlot.cpp" line="175"/>
        <source>geomean %1x</source>
        <translation>几何平均 %1x</translation>
    </message>
    <message>
        <location filename="../ui/views/SpeedupPlot.cpp" line="177"/>
        <source>median %1x</source>
        <translation>中位数 %1x</translation>
    </message>
    <message>
        <location filename="../ui/views/SpeedupPlot.cpp" line="187"/>
        <location filename="../ui/views/SpeedupPlot.cpp" line="233"/>
        <source>tasks</source>
        <translation>任务</translation>
    </message>
    <message>
        <location filename="../ui/views/SpeedupPlot.cpp" line="209"/>
        <source>best kernel, % of roofline</source>
        <translation>最佳内核，占屋顶线的百分比</translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/views/SpeedupPlot.cpp" line="219"/>
        <source>%n task(s) without a speedup or roofline figure are not drawn</source>
        <translation>
            <numerusform>%n 个没有加速比或屋顶线数据的任务未绘制</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../ui/views/SpeedupPlot.cpp" line="253"/>
        <source>share of tasks at or below</source>
        <translation>不超过该值的任务比例</translation>
    </message>
    <message>
        <location filename="../ui/views/SpeedupPlot.cpp" line="375"/>
        <source>status: %1</source>
        <translation>状态：%1</translation>
    </message>
    <message>
        <location filename="../ui/views/SpeedupPlot.cpp" line="376"/>
        <source>initial %1, best %2</source>
        <translation>初始 %1，最佳 %2</translation>
    </message>
    <message>
        <location filename="../ui/views/SpeedupPlot.cpp" line="377"/>
        <source>speedup %1, roofline %2</source>
        <translation>加速比 %1，屋顶线 %2</translation>
    </message>
    <message>
        <location filename="../ui/views/SpeedupPlot.cpp" line="418"/>
        <source>Strata speedups: %1</source>
        <translation>Strata 加速比：%1</translation>
    </message>
    <message>
        <location filename="../ui/views/SpeedupPlot.cpp" line="426"/>
        <source>%1: unknown chart format &apos;%2&apos; (png, svg or pdf)</source>
        <translation>%1：未知的图表格式“%2”（png、svg 或 pdf）</translation>
    </message>
    <message>
        <location filename="../ui/views/SpeedupPlot.cpp" line="429"/>
        <source>%1: could not write the chart</source>
        <translation>%1：无法写入图表</translation>
    </message>
</context>
<context>
    <name>strata::StagePane</name>
    <message>
        <location filename="../ui/views/StagePane.cpp" line="105"/>
        <source>1 line</source>
        <translation>1 行</translation>
    </message>
    <message>
        <location filename="../ui/views/StagePane.cpp" line="105"/>
        <source>%1 lines</source>
        <translation>%1 行</translation>
    </message>
    <message>
        <location filename="../ui/views/StagePane.cpp" line="108"/>
        <source>%1 linked</source>
        <translation>%1 行关联</translation>
    </message>
</context>
<context>
    <name>strata::SuiteBrowser</name>
    <message>
        <location filename="../ui/views/SuiteBrowser.cpp" line="47"/>
        <source>Tasks</source>
        <translation>任务</translation>
    </message>
    <message>
        <location filename="../ui/views/SuiteBrowser.cpp" line="48"/>
        <source>Rewrites</source>
        <translation>改写</translation>
    </message>
    <message>
        <location filename="../ui/views/SuiteBrowser.cpp" line="65"/>
        <source>c%1 %2, saved to %3</source>
        <translation>c%1 %2，已保存到 %3</translation>
    </message>
    <message>
        <location filename="../ui/views/SuiteBrowser.cpp" line="77"/>
        <source>Search tasks, recipes, findings, failures</source>
        <translation>搜索任务、配方、发现、失败</translation>
    </message>
    <message>
        <location filename="../ui/views/SuiteBrowser.cpp" line="82"/>
        <source>All statuses</source>
        <translation>所有状态</translation>
    </message>
    <message>
        <location filename="../ui/views/SuiteBrowser.cpp" line="83"/>
        <source>Improved</source>
        <translation>已改进</translation>
    </message>
    <message>
        <location filename="../ui/views/SuiteBrowser.cpp" line="84"/>
        <source>No gain</source>
        <translation>无提升</translation>
    </message>
    <message>
        <location filename="../ui/views/SuiteBrowser.cpp" line="85"/>
        <source>Failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <location filename="../ui/views/SuiteBrowser.cpp" line="86"/>
        <source>Interrupted</source>
        <translation>已中断</translation>
    </message>
    <message>
        <location filename="../ui/views/SuiteBrowser.cpp" line="87"/>
        <source>Running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <location filename="../ui/views/SuiteBrowser.cpp" line="88"/>
        <source>Pending</source>
        <translation>等待中</translation>
    </message>
    <message>
        <location filename="../ui/views/SuiteBrowser.cpp" line="97"/>
        <source>Sorted speedups</source>
        <translation>排序的加速比</translation>
    </message>
    <message>
        <location filename="../ui/views/SuiteBrowser.cpp" line="98"/>
        <source>Speedup vs % of roofline</source>
        <translation>加速比与屋顶线百分比</translation>
    </message>
    <message>
        <location filename="../ui/views/SuiteBrowser.cpp" line="99"/>
        <source>Speedup distribution (CDF)</source>
        <translation>加速比分布（CDF）</translation>
    </message>
    <message>
        <location filename="../ui/views/SuiteBrowser.cpp" line="138"/>
        <source>All categories</source>
        <translation>所有类别</translation>
    </message>
    <message>
        <location filename="../ui/views/SuiteBrowser.cpp" line="148"/>
        <source>No suite results open (File &gt; Open Suite Results...).</source>
        <translation>未打开套件结果（文件 &gt; 打开套件结果...）。</translation>
    </message>
    <message>
        <location filename="../ui/views/SuiteBrowser.cpp" line="149"/>
        <source>%1: %2 tasks on %3 (backend: %4)</source>
        <translation>%1：%2 个任务，设备 %3（后端：%4）</translation>
    </message>
    <message>
        <location filename="../ui/views/SuiteBrowser.cpp" line="151"/>
        <source>geomean %1x, median %2x, over 2x: %3, over 5x: %4, failures: %5, vs best of eager/torch.compile %6x</source>
        <translation>几何平均 %1x，中位数 %2x，超过 2x：%3，超过 5x：%4，失败：%5，相对 eager/torch.compile 最佳 %6x</translation>
    </message>
    <message>
        <location filename="../ui/views/SuiteBrowser.cpp" line="219"/>
        <source>no candidate c%1 in this task</source>
        <translation>此任务中没有候选 c%1</translation>
    </message>
    <message>
        <location filename="../ui/views/SuiteBrowser.cpp" line="227"/>
        <source>%1: cannot write the review: %2</source>
        <translation>%1：无法写入审阅：%2</translation>
    </message>
</context>
<context>
    <name>strata::SuiteTableModel</name>
    <message>
        <location filename="../ui/models/SuiteTableModel.cpp" line="93"/>
        <source>improved (partial)</source>
        <translation>已提升（部分）</translation>
    </message>
    <message>
        <location filename="../ui/models/SuiteTableModel.cpp" line="94"/>
        <source>improved</source>
        <translation>已改进</translation>
    </message>
    <message>
        <location filename="../ui/models/SuiteTableModel.cpp" line="95"/>
        <source>no gain</source>
        <translation>无提升</translation>
    </message>
    <message>
        <location filename="../ui/models/SuiteTableModel.cpp" line="96"/>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <location filename="../ui/models/SuiteTableModel.cpp" line="97"/>
        <source>interrupted</source>
        <translation>已中断</translation>
    </message>
    <message>
        <location filename="../ui/models/SuiteTableModel.cpp" line="98"/>
        <source>running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <location filename="../ui/models/SuiteTableModel.cpp" line="99"/>
        <source>pending</source>
        <translation>等待中</translation>
    </message>
    <message>
        <location filename="../ui/models/SuiteTableModel.cpp" line="142"/>
        <source>%1
measured in %2</source>
        <translation>%1
测量于 %2</translation>
    </message>
    <message>
        <location filename="../ui/models/SuiteTableModel.cpp" line="164"/>
        <source>Task</source>
        <translation>任务</translation>
    </message>
    <message>
        <location filename="../ui/models/SuiteTableModel.cpp" line="165"/>
        <source>Category</source>
        <translation>类别</translation>
    </message>
    <message>
        <location filename="../ui/models/SuiteTableModel.cpp" line="166"/>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../ui/models/SuiteTableModel.cpp" line="167"/>
        <source>Initial ms</source>
        <translation>初始 ms</translation>
    </message>
    <message>
        <location filename="../ui/models/SuiteTableModel.cpp" line="168"/>
        <source>Best ms</source>
        <translation>最佳 ms</translation>
    </message>
    <message>
        <location filename="../ui/models/SuiteTableModel.cpp" line="169"/>
        <source>Speedup</source>
        <translation>加速比</translation>
    </message>
    <message>
        <location filename="../ui/models/SuiteTableModel.cpp" line="170"/>
        <source>vs eager</source>
        <translation>相对 eager</translation>
    </message>
    <message>
        <location filename="../ui/models/SuiteTableModel.cpp" line="171"/>
        <source>vs torch.compile</source>
        <translation>相对 torch.compile</translation>
    </message>
    <message>
        <location filename="../ui/models/SuiteTableModel.cpp" line="172"/>
        <source>% roofline</source>
        <translation>屋顶线 %</translation>
    </message>
    <message>
        <location filename="../ui/models/SuiteTableModel.cpp" line="173"/>
        <source>Bound</source>
        <translation>瓶颈</translation>
    </message>
    <message>
        <location filename="../ui/models/SuiteTableModel.cpp" line="174"/>
        <source>Won by / why not</source>
        <translation>获胜方式 / 原因</translation>
    </message>
</context>
</TS>
