#!/usr/bin/env python3
"""Lists import cycles among the modules of one crate (a module using its own ancestors or
descendants is not a cycle). Usage: modcycles.py SRC_DIR... ; exit 1 when any is found."""
import os,re,sys,collections

def check(root):
    mods={}
    for dp,_,fs in os.walk(root):
        for f in fs:
            if f.endswith('.rs'):
                p=os.path.join(dp,f); rel=os.path.relpath(p,root)[:-3].split('/')
                if rel[-1] in ('lib','main'): rel=[]
                mods[tuple(rel)]=p
    def resolve(path):
        for k in range(len(path),-1,-1):
            if tuple(path[:k]) in mods: return tuple(path[:k])
        return ()
    edges=collections.defaultdict(set)
    for m,p in mods.items():
        src=open(p).read()
        src=re.split(r'\n#\[cfg\(test\)\]',src)[0]
        src=re.sub(r'//[^\n]*','',src)
        refs=[]
        for mm in re.finditer(r'\b(crate|super(?:::super)*)::((?:\w+::)*\w+|\{[^}]*\})',src):
            base=mm.group(1); rest=mm.group(2)
            if base=='crate': pre=[]
            else:
                n=base.count('super'); pre=list(m[:len(m)-n])
            items=[rest] if not rest.startswith('{') else [x.strip() for x in rest[1:-1].split(',') if x.strip()]
            for it in items:
                parts=[x for x in re.split(r'::',it) if x and x!='self' and x!='*']
                parts=[x.split(' as ')[0].strip() for x in parts]
                t=resolve(pre+parts)
                refs.append(t)
        for t in refs:
            if t!=m and not (m[:len(t)]==t) and not (t[:len(m)]==m):
                edges[m].add(t)
    idx={};low={};st=[];on=set();sccs=[];i=[0]
    sys.setrecursionlimit(100000)
    def sc(v):
        idx[v]=low[v]=i[0];i[0]+=1;st.append(v);on.add(v)
        for w in edges.get(v,()):
            if w not in idx: sc(w);low[v]=min(low[v],low[w])
            elif w in on: low[v]=min(low[v],idx[w])
        if low[v]==idx[v]:
            c=[]
            while True:
                w=st.pop();on.discard(w);c.append(w)
                if w==v:break
            sccs.append(c)
    for v in sorted(mods):
        if v not in idx: sc(v)
    n=0
    for c in sccs:
        if len(c)>1:
            n+=1; print("CYCLE:",sorted('::'.join(x) for x in c))
            for a in c:
                print("   ", '::'.join(a),'->',sorted('::'.join(b) for b in edges[a] if b in c))
    return n


if __name__ == "__main__":
    total = 0
    for root in sys.argv[1:]:
        n = check(root)
        print(f"{root}: {n} import cycle(s)")
        total += n
    sys.exit(1 if total else 0)
