"""Measures the math functions of issue 18 in f32 against the correctly
rounded result: ulps between ewc's output and the exact value (Python's
double functions, far below an f32 ulp) rounded to f32, the worst of 2^20
inputs per function (a third with magnitudes 2^-20 to 2^7 of either sign, a
third in [-1, 1], a third in [1, 20]; pow of |x| to exponents of magnitude
1/8 to 8). Results where the exact value is not finite are skipped.

  python3 bench/probes/math-ulps.py EWC_RUN [cpu|cuda] [WORKDIR]
"""
import os, struct, math, random, subprocess, sys
EWC_RUN = sys.argv[1]
dev = sys.argv[2] if len(sys.argv) > 2 else 'cpu'
os.chdir(sys.argv[3] if len(sys.argv) > 3 else '.')
N=1<<20
random.seed(1)
def f32(v): return struct.unpack('<f',struct.pack('<f',v))[0]
def write(path, vals):
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': (%d,), }" % len(vals)
    header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
    with open(path,'wb') as f:
        f.write(b"\x93NUMPY\x01\x00"+struct.pack("<H",len(header))+header.encode())
        f.write(struct.pack('<%df'%len(vals), *vals))
def read(path):
    d=open(path,'rb').read(); hl=struct.unpack('<H',d[8:10])[0]; b=d[10+hl:]
    return struct.unpack('<%df'%(len(b)//4), b)
def ulp(v):
    if v==0: return 2.0**-149
    e=math.frexp(abs(v))[1]-1
    return 2.0**(max(e,-126)-23)
# inputs: random magnitudes 2^-20..2^7 with sign, plus uniform in [-1,1] and [1,20]
xs=[]
for i in range(N):
    r=i%3
    if r==0: v=random.choice((-1,1))*2.0**random.uniform(-20,7)
    elif r==1: v=random.uniform(-1,1)
    else: v=random.uniform(1,20)
    xs.append(f32(v))
ys=[f32(random.choice((-1,1))*2.0**random.uniform(-3,3)) for i in range(N)]
write('x.npy',xs); write('y.npy',ys)
fns={'exp2':lambda x:2.0**x,'expm1':math.expm1,'log2':math.log2,'log10':math.log10,'log1p':math.log1p,'erfc':math.erfc,
'sin':math.sin,'cos':math.cos,'tan':math.tan,'asin':math.asin,'acos':math.acos,'atan':math.atan,
'sinh':math.sinh,'cosh':math.cosh,'asinh':math.asinh,'acosh':math.acosh,'atanh':math.atanh}
src=["kernel k_%s(x: f32[n]) -> f32[n] { return %s(x); }"%(n,n) for n in fns]
src.append("kernel k_atan2(x: f32[n], y: f32[n]) -> f32[n] { return atan2(y, x); }")
src.append("kernel k_pow(x: f32[n], y: f32[n]) -> f32[n] { return pow(abs(x), y); }")
open('m.ew','w').write("\n".join(src)+"\n")
res={}
for n in list(fns)+['atan2','pow']:
    args=[EWC_RUN,'m.ew','--kernel','k_'+n,'--device',dev,'--input','x=x.npy','--save','out0=o.npy']
    if n in ('atan2','pow'): args+=['--input','y=y.npy']
    subprocess.run(args,capture_output=True)
    out=read('o.npy'); worst=0
    for i,(x,o) in enumerate(zip(xs,out)):
        try:
            if n=='atan2': e=math.atan2(ys[i],x)
            elif n=='pow': e=abs(x)**ys[i]
            else: e=fns[n](x)
        except (ValueError, OverflowError): continue
        if isinstance(e,complex) or math.isinf(e) or math.isnan(e) or math.isnan(o): continue
        if abs(e) > 3.4e38: continue
        d=abs(o-f32(e))/ulp(f32(e))
        worst=max(worst,d)
    res[n]=worst
    print(n, round(worst,3), flush=True)
