; main() for ew-to-cpu-run.mlir: calls the kernels that the test lowers with
; ewc-opt --ew-to-cpu (the kernel ABI: each tensor, inputs then outputs, as
; its memref descriptor's fields: allocated and aligned pointer, offset,
; extent, stride; docs/abi.md) on fixed inputs and
; prints the results as integers or as hex bit patterns.

declare void @"ew$div"(ptr, ptr, i64, i64, i64, ptr, ptr, i64, i64, i64, ptr, ptr, i64, i64, i64)
declare void @"ew$to_int"(ptr, ptr, i64, i64, i64, ptr, ptr, i64, i64, i64)
declare void @"ew$to_bf16"(ptr, ptr, i64, i64, i64, ptr, ptr, i64, i64, i64)
declare void @"ew$math"(ptr, ptr, i64, i64, i64, ptr, ptr, i64, i64, i64, ptr, ptr, i64, i64, i64, ptr, ptr, i64, i64, i64, ptr, ptr, i64, i64, i64, ptr, ptr, i64, i64, i64, ptr, ptr, i64, i64, i64, ptr, ptr, i64, i64, i64)
declare i32 @printf(ptr, ...)

@a = private constant [6 x i32] [i32 7, i32 -7, i32 5, i32 -2147483648, i32 -2147483648, i32 0]
@b = private constant [6 x i32] [i32 2, i32 2, i32 0, i32 -1, i32 1, i32 0]
@x = private constant [6 x float] [float 2.750000e+00, float -2.750000e+00, float 1.000000e+10, float -1.000000e+10, float 0x7FF8000000000000, float -0.000000e+00]
; 1 + 2^-8 + 2^-30 (just above a bf16 tie), 1 + 2^-8 (a tie), 1e300, NaN, -0.0, 3.0
@d = private constant [6 x double] [double 0x3FF0100000400000, double 0x3FF0100000000000, double 1.000000e+300, double 0x7FF8000000000000, double -0.000000e+00, double 3.000000e+00]
@y = private constant [3 x float] [float 0.000000e+00, float 2.000000e+00, float -9.500000e+01]
@dec = private constant [19 x i8] c"%d %d %d %d %d %d\0A\00"
@hex = private constant [19 x i8] c"%x %x %x %x %x %x\0A\00"

; Prints the six i32 at %p with %fmt.
define internal void @print6(ptr %fmt, ptr %p) {
  %p0 = getelementptr i32, ptr %p, i64 0
  %v0 = load i32, ptr %p0
  %p1 = getelementptr i32, ptr %p, i64 1
  %v1 = load i32, ptr %p1
  %p2 = getelementptr i32, ptr %p, i64 2
  %v2 = load i32, ptr %p2
  %p3 = getelementptr i32, ptr %p, i64 3
  %v3 = load i32, ptr %p3
  %p4 = getelementptr i32, ptr %p, i64 4
  %v4 = load i32, ptr %p4
  %p5 = getelementptr i32, ptr %p, i64 5
  %v5 = load i32, ptr %p5
  call i32 (ptr, ...) @printf(ptr %fmt, i32 %v0, i32 %v1, i32 %v2, i32 %v3, i32 %v4, i32 %v5)
  ret void
}

define i32 @main() {
  %q = alloca [6 x i32]
  %t = alloca [6 x i32]
  %h = alloca [6 x i16]
  %hw = alloca [6 x i32]
  %m0 = alloca [3 x float]
  %m1 = alloca [3 x float]
  %m2 = alloca [3 x float]
  %m3 = alloca [3 x float]
  %m4 = alloca [3 x float]
  %m5 = alloca [3 x float]
  %m6 = alloca [3 x float]
  %mw = alloca [6 x i32]
  call void @"ew$div"(ptr @a, ptr @a, i64 0, i64 6, i64 1, ptr @b, ptr @b, i64 0, i64 6, i64 1, ptr %q, ptr %q, i64 0, i64 6, i64 1)
  call void @print6(ptr @dec, ptr %q)
  call void @"ew$to_int"(ptr @x, ptr @x, i64 0, i64 6, i64 1, ptr %t, ptr %t, i64 0, i64 6, i64 1)
  call void @print6(ptr @dec, ptr %t)
  call void @"ew$to_bf16"(ptr @d, ptr @d, i64 0, i64 6, i64 1, ptr %h, ptr %h, i64 0, i64 6, i64 1)
  %h0p = getelementptr i16, ptr %h, i64 0
  %h0 = load i16, ptr %h0p
  %h0w = zext i16 %h0 to i32
  %hw0p = getelementptr i32, ptr %hw, i64 0
  store i32 %h0w, ptr %hw0p
  %h1p = getelementptr i16, ptr %h, i64 1
  %h1 = load i16, ptr %h1p
  %h1w = zext i16 %h1 to i32
  %hw1p = getelementptr i32, ptr %hw, i64 1
  store i32 %h1w, ptr %hw1p
  %h2p = getelementptr i16, ptr %h, i64 2
  %h2 = load i16, ptr %h2p
  %h2w = zext i16 %h2 to i32
  %hw2p = getelementptr i32, ptr %hw, i64 2
  store i32 %h2w, ptr %hw2p
  %h3p = getelementptr i16, ptr %h, i64 3
  %h3 = load i16, ptr %h3p
  %h3w = zext i16 %h3 to i32
  %hw3p = getelementptr i32, ptr %hw, i64 3
  store i32 %h3w, ptr %hw3p
  %h4p = getelementptr i16, ptr %h, i64 4
  %h4 = load i16, ptr %h4p
  %h4w = zext i16 %h4 to i32
  %hw4p = getelementptr i32, ptr %hw, i64 4
  store i32 %h4w, ptr %hw4p
  %h5p = getelementptr i16, ptr %h, i64 5
  %h5 = load i16, ptr %h5p
  %h5w = zext i16 %h5 to i32
  %hw5p = getelementptr i32, ptr %hw, i64 5
  store i32 %h5w, ptr %hw5p
  call void @print6(ptr @hex, ptr %hw)
  call void @"ew$math"(ptr @y, ptr @y, i64 0, i64 3, i64 1, ptr %m0, ptr %m0, i64 0, i64 3, i64 1, ptr %m1, ptr %m1, i64 0, i64 3, i64 1, ptr %m2, ptr %m2, i64 0, i64 3, i64 1, ptr %m3, ptr %m3, i64 0, i64 3, i64 1, ptr %m4, ptr %m4, i64 0, i64 3, i64 1, ptr %m5, ptr %m5, i64 0, i64 3, i64 1, ptr %m6, ptr %m6, i64 0, i64 3, i64 1)
  %s0p = getelementptr i32, ptr %m0, i64 1
  %s0 = load i32, ptr %s0p
  %mw0p = getelementptr i32, ptr %mw, i64 0
  store i32 %s0, ptr %mw0p
  %s1p = getelementptr i32, ptr %m1, i64 0
  %s1 = load i32, ptr %s1p
  %mw1p = getelementptr i32, ptr %mw, i64 1
  store i32 %s1, ptr %mw1p
  %s2p = getelementptr i32, ptr %m2, i64 0
  %s2 = load i32, ptr %s2p
  %mw2p = getelementptr i32, ptr %mw, i64 2
  store i32 %s2, ptr %mw2p
  %s3p = getelementptr i32, ptr %m3, i64 0
  %s3 = load i32, ptr %s3p
  %mw3p = getelementptr i32, ptr %mw, i64 3
  store i32 %s3, ptr %mw3p
  %s4p = getelementptr i32, ptr %m4, i64 0
  %s4 = load i32, ptr %s4p
  %mw4p = getelementptr i32, ptr %mw, i64 4
  store i32 %s4, ptr %mw4p
  %s5p = getelementptr i32, ptr %m5, i64 0
  %s5 = load i32, ptr %s5p
  %mw5p = getelementptr i32, ptr %mw, i64 5
  store i32 %s5, ptr %mw5p
  call void @print6(ptr @hex, ptr %mw)
  %l0p = getelementptr i32, ptr %m6, i64 0
  %l0 = load i32, ptr %l0p
  %l1p = getelementptr i32, ptr %m6, i64 1
  %l1 = load i32, ptr %l1p
  %g2p = getelementptr i32, ptr %m3, i64 2
  %g2 = load i32, ptr %g2p
  call i32 (ptr, ...) @printf(ptr @hex, i32 %l0, i32 %l1, i32 %g2, i32 0, i32 0, i32 0)
  ret i32 0
}
