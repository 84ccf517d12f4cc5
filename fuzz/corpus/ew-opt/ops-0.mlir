

ew.kernel @leaky_relu(%x: tensor<?xf32>, %slope: f32 {ew.default = 0.01 : f32}) -> tensor<?xf32> {
  // CHECK-NEXT: %[[Z:.*]] = ew.constant 0.000000e+00 : f32
  // CHECK-NEXT: %[[K:.*]] = ew.cmp ge, %[[X]], %[[Z]] : tensor<?xf32>, f32
  // CHECK-NEXT: %[[N:.*]] = ew.mul %[[S]], %[[X]] : f32, tensor<?xf32>
  // CHECK-NEXT: %[[R:.*]] = ew.where %[[K]], %[[X]], %[[N]] : tensor<?xi1>, tensor<?xf32>, tensor<?xf32>
  // CHECK-NEXT: ew.return %[[R]] : tensor<?xf32>
  %zero = ew.constant 0.0 : f32
  %keep = ew.cmp ge, %x, %zero : tensor<?xf32>, f32
  %neg = ew.mul %slope, %x : f32, tensor<?xf32>
  %r = ew.where %keep, %x, %neg : tensor<?xi1>, tensor<?xf32>, tensor<?xf32>
  ew.return %r : tensor<?xf32>
}

ew.kernel @arith(%a: tensor<?xf64>, %b: tensor<?xf64>, %c: f64) -> (tensor<?xf64>, tensor<?xf64>) {
  // CHECK-NEXT: %[[ADD:.*]] = ew.add %[[A]], %[[B]] : tensor<?xf64>, tensor<?xf64>
  // CHECK-NEXT: %[[SUB:.*]] = ew.sub %[[ADD]], %[[C]] : tensor<?xf64>, f64
  // CHECK-NEXT: %[[DIV:.*]] = ew.div %[[C]], %[[SUB]] : f64, tensor<?xf64>
  // CHECK-NEXT: %[[NEG:.*]] = ew.neg %[[DIV]] : tensor<?xf64>
  // CHECK-NEXT: ew.return %[[NEG]], %[[ADD]] : tensor<?xf64>, tensor<?xf64>
  %0 = ew.add %a, %b : tensor<?xf64>, tensor<?xf64>
  %1 = ew.sub %0, %c : tensor<?xf64>, f64
  %2 = ew.div %c, %1 : f64, tensor<?xf64>
  %3 = ew.neg %2 : tensor<?xf64>
  ew.return %3, %0 : tensor<?xf64>, tensor<?xf64>
}

ew.kernel @types(%i: tensor<?xi32>, %l: tensor<?xi64>, %h: tensor<?xf16>, %bf: tensor<?xbf16>,
                 %flag: i1 {ew.default = true}, %k: i64 {ew.default = -3 : i64})
    -> (tensor<?xi32>, tensor<?xi64>, tensor<?xf16>, tensor<?xbf16>, tensor<?xi1>) {
  // CHECK: ew.mul %{{.*}}, %{{.*}} : tensor<?xi32>, tensor<?xi32>
  // CHECK: ew.add %{{.*}}, %{{.*}} : tensor<?xi64>, i64
  // CHECK: ew.neg %{{.*}} : tensor<?xf16>
  // CHECK: ew.constant 1.500000e+00 : bf16
  // CHECK: ew.cmp ne, %{{.*}}, %{{.*}} : tensor<?xi1>, i1
  %0 = ew.mul %i, %i : tensor<?xi32>, tensor<?xi32>
  %1 = ew.add %l, %k : tensor<?xi64>, i64
  %2 = ew.neg %h : tensor<?xf16>
  %c = ew.constant 1.5 : bf16
  %3 = ew.mul %bf, %c : tensor<?xbf16>, bf16
  %4 = ew.cmp lt, %i, %i : tensor<?xi32>, tensor<?xi32>
  %5 = ew.cmp ne, %4, %flag : tensor<?xi1>, i1
  ew.return %0, %1, %2, %3, %5 : tensor<?xi32>, tensor<?xi64>, tensor<?xf16>, tensor<?xbf16>, tensor<?xi1>
}

ew.kernel @predicates(%a: tensor<?xi32>, %b: i32) -> (tensor<?xi1>, tensor<?xi1>, tensor<?xi1>, tensor<?xi1>, tensor<?xi1>, tensor<?xi1>) {
  %0 = ew.cmp eq, %a, %b : tensor<?xi32>, i32
  %1 = ew.cmp ne, %a, %b : tensor<?xi32>, i32
  %2 = ew.cmp lt, %a, %b : tensor<?xi32>, i32
  %3 = ew.cmp le, %a, %b : tensor<?xi32>, i32
  %4 = ew.cmp gt, %a, %b : tensor<?xi32>, i32
  %5 = ew.cmp ge, %a, %b : tensor<?xi32>, i32
  ew.return %0, %1, %2, %3, %4, %5 : tensor<?xi1>, tensor<?xi1>, tensor<?xi1>, tensor<?xi1>, tensor<?xi1>, tensor<?xi1>
}

ew.kernel @scalars(%x: tensor<?xf32>, %a: f32, %b: f32) -> tensor<?xf32> {
  %p = ew.mul %a, %b : f32, f32
  %c = ew.cmp gt, %x, %p : tensor<?xf32>, f32
  %w = ew.where %c, %p, %x : tensor<?xi1>, f32, tensor<?xf32>
  ew.return %w : tensor<?xf32>
}

ew.kernel @int_and_float_ops(%i: tensor<?xi32>, %k: i32, %f: tensor<?xf64>)
    -> (tensor<?xi32>, tensor<?xi32>, tensor<?xf64>, tensor<?xf64>) {
  // CHECK-NEXT: %[[DIV:.*]] = ew.div %[[I]], %[[K]] : tensor<?xi32>, i32
  // CHECK-NEXT: %[[MAX:.*]] = ew.max %[[DIV]], %[[I]] : tensor<?xi32>, tensor<?xi32>
  // CHECK-NEXT: %[[ABS:.*]] = ew.abs %[[MAX]] : tensor<?xi32>
  // CHECK-NEXT: %[[MIN:.*]] = ew.min %[[K]], %[[ABS]] : i32, tensor<?xi32>
  // CHECK-NEXT: %[[FMAX:.*]] = ew.max %[[F]], %[[F]] : tensor<?xf64>, tensor<?xf64>
  // CHECK-NEXT: %[[FABS:.*]] = ew.abs %[[FMAX]] : tensor<?xf64>
  // CHECK-NEXT: %[[FMIN:.*]] = ew.min %[[FABS]], %[[F]] : tensor<?xf64>, tensor<?xf64>
  // CHECK-NEXT: ew.return %[[ABS]], %[[MIN]], %[[FABS]], %[[FMIN]]
  %0 = ew.div %i, %k : tensor<?xi32>, i32
  %1 = ew.max %0, %i : tensor<?xi32>, tensor<?xi32>
  %2 = ew.abs %1 : tensor<?xi32>
  %3 = ew.min %k, %2 : i32, tensor<?xi32>
  %4 = ew.max %f, %f : tensor<?xf64>, tensor<?xf64>
  %5 = ew.abs %4 : tensor<?xf64>
  %6 = ew.min %5, %f : tensor<?xf64>, tensor<?xf64>
  ew.return %2, %3, %5, %6 : tensor<?xi32>, tensor<?xi32>, tensor<?xf64>, tensor<?xf64>
}

ew.kernel @logic(%p: tensor<?xi1>, %q: tensor<?xi1>, %flag: i1) -> tensor<?xi1> {
  // CHECK-NEXT: %[[AND:.*]] = ew.and %[[P]], %[[Q]] : tensor<?xi1>, tensor<?xi1>
  // CHECK-NEXT: %[[OR:.*]] = ew.or %[[AND]], %[[FLAG]] : tensor<?xi1>, i1
  // CHECK-NEXT: %[[NOT:.*]] = ew.not %[[OR]] : tensor<?xi1>
  // CHECK-NEXT: ew.return %[[NOT]] : tensor<?xi1>
  %0 = ew.and %p, %q : tensor<?xi1>, tensor<?xi1>
  %1 = ew.or %0, %flag : tensor<?xi1>, i1
  %2 = ew.not %1 : tensor<?xi1>
  ew.return %2 : tensor<?xi1>
}

ew.kernel @math(%x: tensor<?xf32>, %s: f64) -> (tensor<?xf32>, tensor<?xf64>) {
  // CHECK-NEXT: %[[E:.*]] = ew.exp %[[X]] : tensor<?xf32>
  // CHECK-NEXT: %[[L:.*]] = ew.log %[[E]] : tensor<?xf32>
  // CHECK-NEXT: %[[Q:.*]] = ew.sqrt %[[L]] : tensor<?xf32>
  // CHECK-NEXT: %[[R:.*]] = ew.rsqrt %[[Q]] : tensor<?xf32>
  // CHECK-NEXT: %[[T:.*]] = ew.tanh %[[R]] : tensor<?xf32>
  // CHECK-NEXT: %[[G:.*]] = ew.sigmoid %[[T]] : tensor<?xf32>
  // CHECK-NEXT: %[[ERF:.*]] = ew.erf %[[G]] : tensor<?xf32>
  // CHECK-NEXT: %[[SE:.*]] = ew.exp %[[S]] : f64
  // CHECK-NEXT: ew.return %[[ERF]], %[[SE]] : tensor<?xf32>, f64
  %0 = ew.exp %x : tensor<?xf32>
  %1 = ew.log %0 : tensor<?xf32>
  %2 = ew.sqrt %1 : tensor<?xf32>
  %3 = ew.rsqrt %2 : tensor<?xf32>
  %4 = ew.tanh %3 : tensor<?xf32>
  %5 = ew.sigmoid %4 : tensor<?xf32>
  %6 = ew.erf %5 : tensor<?xf32>
  %7 = ew.exp %s : f64
  ew.return %6, %7 : tensor<?xf32>, f64
}

ew.kernel @casts(%x: tensor<?xbf16>, %n: i64) -> (tensor<?xbf16>, tensor<?xi1>) {
  // CHECK-NEXT: %[[W:.*]] = ew.cast %[[X]] : tensor<?xbf16> to tensor<?xf32>
  // CHECK-NEXT: %[[NF:.*]] = ew.cast %[[N]] : i64 to f32
  // CHECK-NEXT: %[[M:.*]] = ew.mul %[[W]], %[[NF]] : tensor<?xf32>, f32
  // CHECK-NEXT: %[[B:.*]] = ew.cast %[[M]] : tensor<?xf32> to tensor<?xbf16>
  // CHECK-NEXT: %[[I:.*]] = ew.cast %[[M]] : tensor<?xf32> to tensor<?xi1>
  // CHECK-NEXT: ew.return %[[B]], %[[I]] : tensor<?xbf16>, tensor<?xi1>
  %0 = ew.cast %x : tensor<?xbf16> to tensor<?xf32>
  %1 = ew.cast %n : i64 to f32
  %2 = ew.mul %0, %1 : tensor<?xf32>, f32
  %3 = ew.cast %2 : tensor<?xf32> to tensor<?xbf16>
  %4 = ew.cast %2 : tensor<?xf32> to tensor<?xi1>
  ew.return %3, %4 : tensor<?xbf16>, tensor<?xi1>
}

ew.kernel @fill(%x: tensor<?xi64>, %k: i64) -> (tensor<?xi64>, tensor<?xi64>) {
  ew.return %x, %k : tensor<?xi64>, i64
}
