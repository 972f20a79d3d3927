#!/usr/bin/env python3
# Usage: python3 gen_intents.py ../../../shared/eval/agent-dev.jsonl intents.jsonl [more sets...]
# Every dev/test set's phrasings are excluded: the one named first, the project's own sets
# under assets/eval/*/ (their `text` and `turns`), and any further sets named after the output.
"""Generates assets/planner/intents.jsonl: labelled example phrasings per intent.

Templates x fillers, deduplicated, anything within a small edit distance of an evaluation
phrasing removed (see `near_eval`), capped per intent with a fixed seed.
"""
import glob, itertools, json, os, random, string, sys

rng = random.Random(20261001)
CAP = 260

def expand(templates, **fills):
    out = []
    for t in templates:
        keys = [k for k in fills if "{" + k + "}" in t]
        if not keys:
            out.append(t)
            continue
        for combo in itertools.product(*[fills[k] for k in keys]):
            out.append(t.format(**dict(zip(keys, combo))))
    return out

I = {}

# ---------------- monitor
mz = ["CPU", "cpu", "处理器", "CPU负载", "系统负载", "内存", "内存占用", "RAM", "磁盘", "硬盘", "磁盘空间",
      "存储空间", "剩余空间", "系统资源", "服务器状态", "机器负载", "资源占用", "服务器性能", "负载", "可用内存",
      "硬盘容量", "根分区", "swap", "运行状况"]
mzt = ["{s}使用率多少", "看下{s}", "{s}怎么样了", "{s}现在多少", "帮我查一下{s}", "{s}高不高", "{s}还剩多少",
       "{s}情况如何", "现在{s}如何", "检查一下{s}", "{s}是不是快满了", "监控一下{s}", "服务器的{s}", "{s}紧张吗",
       "报告{s}", "{s}占了多少"]
me = ["cpu", "CPU usage", "processor load", "memory", "RAM", "free memory", "disk space", "disk", "storage",
      "system load", "load average", "system health", "server status", "resource usage", "swap", "free space"]
met = ["how much {s} is used", "check {s}", "show {s}", "what's the {s} like", "{s} stats", "is the {s} ok",
       "current {s}", "report {s}", "how is the {s}", "monitor {s}", "give me the {s}", "{s} right now"]
I["monitor"] = expand(mzt, s=mz) + expand(met, s=me) + [
    "服务器卡不卡", "机器是不是很忙", "系统健康检查", "看看机器状态", "资源够不够用", "服务器压力大吗",
    "how busy is the box", "is the server overloaded", "health check", "machine status please",
    "诊断一下服务器", "系统运行情况", "整体资源概览", "overall resource overview", "is anything running hot",
]

# ---------------- command (natural phrasing of whitelisted commands)
I["command"] = expand(
    ["{v}当前目录下的文件", "{v}这个目录里有什么", "{v}正在运行的进程", "{v}进程列表", "{v}当前路径",
     "{v}当前登录的用户", "{v}所在目录"],
    v=["列出", "看看", "显示", "帮我看下", "查一下", "瞧瞧"],
) + expand(
    ["{v} the files here", "{v} running processes", "{v} the current directory", "{v} the current user",
     "{v} what is in this folder", "{v} the process list", "{v} the directory listing"],
    v=["list", "show", "show me", "display", "print", "tell me"],
) + expand(["{p}{c}", "{p} {c}"], p=["执行", "运行", "跑一下", "帮我执行", "run", "execute"],
           c=["ps", "pwd", "whoami", "ls", "ls -l", "df", "free", "ps -ef"]) + [
    "我在哪个目录", "现在在什么路径下", "有哪些进程在跑", "后台跑着什么程序", "服务是以哪个用户运行的",
    "当前用户名是什么", "目录下有什么东西", "看看文件列表", "which directory am I in", "who am I logged in as",
    "what processes are running", "what user is the server running as", "show the working directory",
    "what's in the current folder", "list everything in this dir", "进程都有哪些", "列一下文件",
    "看一下有哪些文件", "查看文件系统挂载情况", "show mounted filesystems",
]

# ---------------- search
tz = ["数据库", "备份", "监控告警", "缓存", "负载均衡", "证书", "权限", "部署", "升级", "回滚", "网络", "防火墙",
      "端口", "定时任务", "接口", "错误码", "限流", "鉴权", "日志轮转", "内存泄漏", "Redis", "消息队列", "超时",
      "安装步骤", "环境变量", "SSL", "Nginx反向代理", "慢查询", "连接池"]
szt = ["搜索{t}相关的文档", "查找{t}的资料", "检索{t}", "找一下{t}的说明", "帮我找找{t}方面的信息",
       "搜一下{t}", "有没有{t}的文档", "哪里有{t}的说明", "{t}在哪个文件里", "哪里写了{t}", "关于{t}有什么资料",
       "{t}是在哪里配置的", "文档里怎么说{t}的", "查一查{t}"]
te = ["database", "backup", "alerting", "cache", "load balancer", "certificate", "permissions", "deployment",
      "upgrade", "rollback", "firewall", "cron jobs", "api", "error codes", "rate limit", "authentication",
      "log rotation", "memory leak", "redis", "message queue", "timeout", "installation", "environment variables",
      "ssl", "connection pool"]
set_ = ["search for {t}", "find docs about {t}", "where is {t} configured", "look up {t}",
        "any documentation on {t}", "which file mentions {t}", "I need info about {t}", "search the docs for {t}",
        "find anything related to {t}", "where can I read about {t}", "locate the {t} settings"]
I["search"] = expand(szt, t=tz) + expand(set_, t=te) + expand(
    ["我需要{f}", "找{f}", "有{f}吗", "I need the {e}", "find the {e}"],
    f=["日志", "配置", "报告", "手册", "说明文档"], e=["logs", "config", "report", "manual"])

# ---------------- download
fz = ["配置文件", "日志", "那个报告", "nginx.conf", "app.log", "部署文档", "数据文件", "备份文件", "结果文件",
      "report.pdf", "data.csv", "手册", "设置文件", "错误日志", "这个文件"]
dzt = ["把{f}发给我", "下载{f}", "给我发一份{f}", "我要下载{f}", "帮我把{f}传过来", "导出{f}", "发送{f}给我",
       "{f}能发我一下吗", "拷贝{f}到本地", "{f}下载下来", "把{f}传给我", "我想要{f}的副本"]
fe = ["config file", "logs", "the report", "nginx.conf", "app.log", "deploy guide", "data file", "backup",
      "results", "report.pdf", "data.csv", "manual", "settings file", "error log"]
det = ["send me {f}", "download {f}", "can I get a copy of {f}", "give me {f}", "I want to download {f}",
       "fetch {f} for me", "transfer {f} to my machine", "grab {f} for me", "export {f}", "send {f} over"]
I["download"] = expand(dzt, f=fz) + expand(det, f=fe)

# ---------------- read / analyse
rz = ["nginx.conf", "app.log", "部署手册", "这个日志", "配置文件", "报告", "settings.json", "错误日志", "说明文档",
      "notes.txt", "那份文档"]
rzt = ["看看{f}里写了什么", "读一下{f}", "分析{f}", "打开{f}", "{f}的内容是什么", "总结一下{f}",
       "{f}里有哪些错误", "解读{f}", "显示{f}的内容", "{f}里讲了什么", "帮我过一遍{f}", "{f}写的啥",
       "{f}里的端口是多少", "统计{f}里的报错"]
re_ = ["nginx.conf", "app.log", "the deploy guide", "this log", "the config", "the report", "settings.json",
       "notes.txt", "the error log"]
ret = ["read {f}", "what's in {f}", "analyze {f}", "summarize {f}", "open {f}", "show the contents of {f}",
       "what port does {f} use", "explain the errors in {f}", "go through {f}", "what does {f} say",
       "count the errors in {f}"]
I["read"] = expand(rzt, f=rz) + expand(ret, f=re_)

# ---------------- uploads (session files)
I["uploads"] = expand(
    ["{v}我上传的文件", "{v}已上传的文件", "{v}上传记录", "{v}我传过的文件"],
    v=["列出", "看看", "显示", "查一下", "", "告诉我"],
) + expand(["{v} my uploads", "{v} the files I uploaded", "{v} my uploaded files"],
           v=["list", "show", "what are", "display", ""]) + [
    "我上传了哪些文件", "之前传的那个文件", "刚才上传的是什么", "这两个文件", "最近上传的文件",
    "今天上传的文件有哪些", "我刚传的文件", "上一个上传的文件", "我之前发的文件", "这些文件是什么",
    "这份文件讲什么", "这俩文件", "最新上传的那个", "what files did I upload", "the file I just uploaded",
    "these two files", "my previous upload", "what did I upload today", "the last file I sent",
    "which files have I shared", "刚上传的那个", "上传过的文档", "我发过来的文件", "我给你的文件",
    "this file", "what is this file", "these files", "那个文件呢", "会话里有哪些文件",
]

# ---------------- how to upload (chat)
xz = ["文件", "日志", "配置", "文档", "一份报告", "服务器日志", "截图", "压缩包", "数据", "脚本"]
I["upload_howto"] = expand(
    ["我想上传{x}", "怎么上传{x}", "如何把{x}传到服务器", "上传{x}", "我要传个{x}上去", "能上传{x}吗",
     "我有个{x}要给你", "给你发个{x}", "分享一个{x}给你", "我有{x}想分享", "把{x}传上去", "上传一下{x}"],
    x=xz) + expand(
    ["how do I upload {x}", "I want to upload {x}", "can I upload {x}", "upload my {x}", "I have {x} to share",
     "let me send you {x}", "how to transfer {x} to the server", "I'd like to share {x}"],
    x=["a file", "a log", "the config", "a document", "a report", "some data", "a script"]) + [
    "上传文件", "传文件", "文件怎么传", "我要传文件到服务器上", "upload", "how to upload", "file transfer to server",
    "上传入口在哪", "怎么给你文件",
]

# ---------------- explain (knowledge questions, no tool)
cz = ["ls", "grep", "tail -f", "df -h", "free -m", "ps aux", "chmod", "top", "负载均值", "swap", "inode", "du",
      "head -n", "pwd", "cat", "whoami", "管道", "load average", "ll", "ps -ef"]
I["explain"] = expand(
    ["{c}是什么意思", "{c}命令怎么用", "{c}有什么用", "解释一下{c}", "{c}的用法", "{c}是干嘛的", "{c}是做什么用的",
     "什么是{c}", "{c}怎么使用"], c=cz) + expand(
    ["what does {c} do", "how do I use {c}", "explain {c}", "what is {c}", "what is {c} for",
     "usage of {c}", "how does {c} work"], c=cz) + expand(
    ["{a}和{b}有什么区别", "{a}跟{b}的区别", "difference between {a} and {b}", "{a} vs {b}"],
    a=["ls", "cat", "head", "free", "df"], b=["ll", "less", "tail", "top", "du"])

# ---------------- small talk
I["greet"] = ["你好", "您好", "嗨", "哈喽", "早上好", "下午好", "晚上好", "在吗", "hello", "hey", "hi there",
              "good morning", "good evening", "yo", "你好呀", "你好啊", "早", "hey there", "howdy", "喂",
              "hello there", "嗨嗨", "在不在", "有人吗", "good afternoon"]
I["thanks"] = ["谢谢", "多谢", "感谢", "谢了", "thanks", "thank you", "thx", "非常感谢", "辛苦了", "好的谢谢",
               "太感谢了", "thanks a lot", "much appreciated", "谢谢你", "感谢帮忙", "cheers", "ty", "ok thanks",
               "great, thanks", "3q"]
I["bye"] = ["再见", "拜拜", "回头见", "下次见", "goodbye", "see you", "bye bye", "see ya", "later", "先这样",
            "我走了", "晚安", "good night", "catch you later", "886", "退出了"]
I["identity"] = ["你是谁", "你叫什么", "你是什么", "你能做什么", "你有什么功能", "介绍一下你自己", "who are you",
                 "what are you", "what can you do", "help", "帮助", "你会什么", "what is this", "introduce yourself",
                 "你是机器人吗", "are you a bot", "使用帮助", "有哪些功能", "怎么用你", "how do I use you",
                 "what tools do you have", "你能帮我干什么"]

# ---------------- dangerous natural-language requests
I["danger"] = expand(
    ["{v}所有{o}", "帮我{v}{o}", "把{o}{v}了"], v=["删除", "删掉", "清空", "格式化"],
    o=["日志", "文件", "数据库", "磁盘", "上传目录", "用户数据"]) + [
    "重启服务器", "把服务器重启一下", "关机", "立即关机", "杀掉所有进程", "修改root密码", "给我root权限",
    "卸载nginx", "安装一个软件", "停掉数据库", "改一下文件权限", "把防火墙关了", "reboot the server",
    "shutdown now", "kill all processes", "format the disk", "wipe the database", "give me root access",
    "change the root password", "delete all files", "remove the logs", "install a package", "stop the database",
    "disable the firewall", "chmod 777 everything", "restart nginx", "重启nginx服务", "kill掉那个进程",
    "delete everything in /tmp", "erase the disk", "drop the database",
]

# Same normalisation and distance as the overlap guard in server/src/agent/planner/classify.rs.
CJK_PUNCT = "，。！？、；：“”‘’（）【】《》〈〉「」『』…—·～"
MAX_EDIT = 2

def norm(t):
    return "".join(c for c in t.lower()
                   if not c.isspace() and c not in string.punctuation and c not in CJK_PUNCT)

def within(a, b, k):
    """Levenshtein distance of a and b is at most k (banded)."""
    if abs(len(a) - len(b)) > k:
        return False
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb))
        if min(cur) > k:
            return False
        prev = cur
    return prev[-1] <= k

here = os.path.dirname(os.path.abspath(__file__))
set_files = sys.argv[1:2] + sys.argv[3:] + sorted(glob.glob(os.path.join(here, "..", "eval", "*", "*.jsonl")))
eval_norm = set()
for path in set_files:
    try:
        for line in open(path, encoding="utf-8"):
            if line.strip():
                case = json.loads(line)
                for t in [case.get("text", "")] + list(case.get("turns", [])):
                    if norm(t):
                        eval_norm.add(norm(t))
    except FileNotFoundError:
        print(f"note: {path} absent", file=sys.stderr)
eval_by_len = {}
for e in eval_norm:
    eval_by_len.setdefault(len(e), []).append(e)

def max_edit(a, b):
    """The distance that counts as near: 2, less for very short phrasings (any two 2-character
    phrasings are within 2 edits, so they only count when equal)."""
    return min(MAX_EDIT, (min(len(a), len(b)) - 1) // 2)

def near_eval(t):
    n = norm(t)
    return any(within(n, e, max_edit(n, e))
               for L in range(len(n) - MAX_EDIT, len(n) + MAX_EDIT + 1)
               for e in eval_by_len.get(L, ()))

out = []
for intent in sorted(I):
    seen = set()
    items = []
    for t in I[intent]:
        t = " ".join(t.split())
        k = t.lower()
        if not t or k in seen or near_eval(t):
            continue
        seen.add(k)
        items.append(t)
    if len(items) > CAP:
        items = rng.sample(items, CAP)
    for t in items:
        out.append({"intent": intent, "text": t})
    print(intent, len(items), file=sys.stderr)

with open(sys.argv[2], "w", encoding="utf-8") as f:
    for o in out:
        f.write(json.dumps(o, ensure_ascii=False) + "\n")
