// -----// WarpSpec internal IR Dump After: doCodePartition
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @ws_kernel(%arg0: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg3: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %0 = nvws.create_token {loadType = 1 : i32, numBuffers = 2 : i32} : tensor<2x!nvws.token>
    %1 = nvws.create_token {loadType = 1 : i32, numBuffers = 2 : i32} : tensor<2x!nvws.token>
    %2 = nvws.create_token {loadType = 1 : i32, numBuffers = 2 : i32} : tensor<2x!nvws.token>
    %3 = nvws.create_token {loadType = 1 : i32, numBuffers = 2 : i32} : tensor<2x!nvws.token>
    %4 = ttg.local_alloc : () -> !ttg.memdesc<2x64x64xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>, #ttg.shared_memory, mutable>
    %5 = ttg.local_alloc : () -> !ttg.memdesc<2x64x64xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>, #ttg.shared_memory, mutable>
    %6 = ttg.local_alloc : () -> !ttg.memdesc<2x64x128xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>, #ttg.shared_memory, mutable>
    ttg.warp_specialize(%4, %0, %6, %2, %arg3, %arg2, %5, %1, %3) attributes {requestedRegisters = array<i32: 232, 232>}
    default {
      %cst = arith.constant {async_task_id = array<i32: 0>} dense<128> : tensor<64x1xi32, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>
      %c0_i32 = arith.constant {async_task_id = array<i32: 0>} 0 : i32
      %c64_i32 = arith.constant {async_task_id = array<i32: 0>} 64 : i32
      %7 = tt.make_range {async_task_id = array<i32: 0>, end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>}>>
      %8 = tt.make_range {async_task_id = array<i32: 0>, end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>>
      %9 = tt.make_range {async_task_id = array<i32: 0>, end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>}>>
      %10 = tt.make_range {async_task_id = array<i32: 0>, end = 128 : i32, start = 64 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>}>>
      %11 = tt.expand_dims %9 {async_task_id = array<i32: 0>, axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>}>> -> tensor<64x1xi32, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>
      %12 = tt.expand_dims %10 {async_task_id = array<i32: 0>, axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>}>> -> tensor<64x1xi32, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>
      %13 = tt.splat %arg3 {async_task_id = array<i32: 0>} : i32 -> tensor<64x1xi32, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>
      %14 = tt.splat %arg3 {async_task_id = array<i32: 0>} : i32 -> tensor<64x1xi32, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>
      %15 = arith.muli %11, %13 {async_task_id = array<i32: 0>} : tensor<64x1xi32, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>
      %16 = arith.muli %12, %14 {async_task_id = array<i32: 0>} : tensor<64x1xi32, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>
      %17 = tt.splat %arg0 {async_task_id = array<i32: 0>} : !tt.ptr<f16> -> tensor<64x1x!tt.ptr<f16>, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>
      %18 = tt.splat %arg0 {async_task_id = array<i32: 0>} : !tt.ptr<f16> -> tensor<64x1x!tt.ptr<f16>, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>
      %19 = tt.addptr %17, %15 {async_task_id = array<i32: 0>} : tensor<64x1x!tt.ptr<f16>, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>, tensor<64x1xi32, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>
      %20 = tt.addptr %18, %16 {async_task_id = array<i32: 0>} : tensor<64x1x!tt.ptr<f16>, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>, tensor<64x1xi32, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>
      %21 = tt.broadcast %19 {async_task_id = array<i32: 0>} : tensor<64x1x!tt.ptr<f16>, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>> -> tensor<64x64x!tt.ptr<f16>, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>
      %22 = tt.broadcast %20 {async_task_id = array<i32: 0>} : tensor<64x1x!tt.ptr<f16>, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>> -> tensor<64x64x!tt.ptr<f16>, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>
      %23 = tt.splat %arg1 {async_task_id = array<i32: 0>} : !tt.ptr<f16> -> tensor<64x1x!tt.ptr<f16>, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>
      %24 = tt.make_range {async_task_id = array<i32: 0>, end = 128 : i32, start = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 0, parent = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>>
      %25 = tt.expand_dims %24 {async_task_id = array<i32: 0>, axis = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 0, parent = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>> -> tensor<1x128xi32, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>
      %26 = tt.broadcast %25 {async_task_id = array<i32: 0>} : tensor<1x128xi32, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>> -> tensor<64x128xi32, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>
      %c0_i64 = arith.constant {async_task_id = array<i32: 0>} 0 : i64
      %27 = scf.for %arg4 = %c0_i32 to %arg3 step %c64_i32 iter_args(%arg5 = %c0_i64) -> (i64)  : i32 {
        %28 = tt.splat %arg4 {async_task_id = array<i32: 0>} : i32 -> tensor<64xi32, #ttg.slice<{dim = 0, parent = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>}>>
        %29 = arith.addi %28, %7 {async_task_id = array<i32: 0>} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>}>>
        %30 = tt.expand_dims %29 {async_task_id = array<i32: 0>, axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>}>> -> tensor<1x64xi32, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>
        %31 = tt.broadcast %30 {async_task_id = array<i32: 0>} : tensor<1x64xi32, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>> -> tensor<64x64xi32, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>
        %32 = tt.addptr %21, %31 {async_task_id = array<i32: 0>} : tensor<64x64x!tt.ptr<f16>, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>, tensor<64x64xi32, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>
        %c2_i32 = arith.constant {async_task_id = array<i32: 0>} 2 : i32
        %33 = arith.extsi %c2_i32 {async_task_id = array<i32: 0>} : i32 to i64
        %34 = arith.divui %arg5, %33 {async_task_id = array<i32: 0>} : i64
        %35 = arith.muli %34, %33 {async_task_id = array<i32: 0>} : i64
        %36 = arith.subi %arg5, %35 {async_task_id = array<i32: 0>} : i64
        %37 = arith.trunci %36 {async_task_id = array<i32: 0>} : i64 to i32
        %c1_i64 = arith.constant {async_task_id = array<i32: 0>} 1 : i64
        %38 = arith.andi %34, %c1_i64 {async_task_id = array<i32: 0>} : i64
        %39 = arith.trunci %38 {async_task_id = array<i32: 0>} : i64 to i1
        %40 = ttg.memdesc_index %4[%37] {async_task_id = array<i32: 0>} : !ttg.memdesc<2x64x64xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>, #ttg.shared_memory, mutable> -> !ttg.memdesc<64x64xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>, #ttg.shared_memory, mutable>
        %c2_i32_0 = arith.constant {async_task_id = array<i32: 0>} 2 : i32
        %41 = arith.extsi %c2_i32_0 {async_task_id = array<i32: 0>} : i32 to i64
        %42 = arith.divui %arg5, %41 {async_task_id = array<i32: 0>} : i64
        %43 = arith.muli %42, %41 {async_task_id = array<i32: 0>} : i64
        %44 = arith.subi %arg5, %43 {async_task_id = array<i32: 0>} : i64
        %45 = arith.trunci %44 {async_task_id = array<i32: 0>} : i64 to i32
        %c1_i64_1 = arith.constant {async_task_id = array<i32: 0>} 1 : i64
        %46 = arith.andi %42, %c1_i64_1 {async_task_id = array<i32: 0>} : i64
        %47 = arith.trunci %46 {async_task_id = array<i32: 0>} : i64 to i1
        nvws.producer_acquire %0, %45, %47 {async_task_id = array<i32: 0>} : tensor<2x!nvws.token>, i32, i1
        %48 = ttg.async_copy_global_to_local %32, %40 {async_task_id = array<i32: 0>} : tensor<64x64x!tt.ptr<f16>, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>> -> <64x64xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>, #ttg.shared_memory, mutable>
        nvws.producer_commit %0, %45 {async_task_id = array<i32: 0>} : tensor<2x!nvws.token>, i32
        %49 = tt.splat %arg4 {async_task_id = array<i32: 0>} : i32 -> tensor<64xi32, #ttg.slice<{dim = 1, parent = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>>
        %50 = arith.addi %49, %8 {async_task_id = array<i32: 0>} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>>
        %51 = tt.expand_dims %50 {async_task_id = array<i32: 0>, axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>> -> tensor<64x1xi32, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>
        %52 = arith.muli %51, %cst {async_task_id = array<i32: 0>} : tensor<64x1xi32, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>
        %53 = tt.addptr %23, %52 {async_task_id = array<i32: 0>} : tensor<64x1x!tt.ptr<f16>, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>, tensor<64x1xi32, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>
        %54 = tt.broadcast %53 {async_task_id = array<i32: 0>} : tensor<64x1x!tt.ptr<f16>, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>> -> tensor<64x128x!tt.ptr<f16>, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>
        %55 = tt.addptr %54, %26 {async_task_id = array<i32: 0>} : tensor<64x128x!tt.ptr<f16>, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>, tensor<64x128xi32, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>
        %c2_i32_2 = arith.constant {async_task_id = array<i32: 0>} 2 : i32
        %56 = arith.extsi %c2_i32_2 {async_task_id = array<i32: 0>} : i32 to i64
        %57 = arith.divui %arg5, %56 {async_task_id = array<i32: 0>} : i64
        %58 = arith.muli %57, %56 {async_task_id = array<i32: 0>} : i64
        %59 = arith.subi %arg5, %58 {async_task_id = array<i32: 0>} : i64
        %60 = arith.trunci %59 {async_task_id = array<i32: 0>} : i64 to i32
        %c1_i64_3 = arith.constant {async_task_id = array<i32: 0>} 1 : i64
        %61 = arith.andi %57, %c1_i64_3 {async_task_id = array<i32: 0>} : i64
        %62 = arith.trunci %61 {async_task_id = array<i32: 0>} : i64 to i1
        %63 = ttg.memdesc_index %6[%60] {async_task_id = array<i32: 0>} : !ttg.memdesc<2x64x128xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>, #ttg.shared_memory, mutable> -> !ttg.memdesc<64x128xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>, #ttg.shared_memory, mutable>
        %c2_i32_4 = arith.constant {async_task_id = array<i32: 0>} 2 : i32
        %64 = arith.extsi %c2_i32_4 {async_task_id = array<i32: 0>} : i32 to i64
        %65 = arith.divui %arg5, %64 {async_task_id = array<i32: 0>} : i64
        %66 = arith.muli %65, %64 {async_task_id = array<i32: 0>} : i64
        %67 = arith.subi %arg5, %66 {async_task_id = array<i32: 0>} : i64
        %68 = arith.trunci %67 {async_task_id = array<i32: 0>} : i64 to i32
        %c1_i64_5 = arith.constant {async_task_id = array<i32: 0>} 1 : i64
        %69 = arith.andi %65, %c1_i64_5 {async_task_id = array<i32: 0>} : i64
        %70 = arith.trunci %69 {async_task_id = array<i32: 0>} : i64 to i1
        nvws.producer_acquire %3, %68, %70 {async_task_id = array<i32: 0>} : tensor<2x!nvws.token>, i32, i1
        nvws.producer_acquire %2, %68, %70 {async_task_id = array<i32: 0>} : tensor<2x!nvws.token>, i32, i1
        %71 = ttg.async_copy_global_to_local %55, %63 {async_task_id = array<i32: 0>} : tensor<64x128x!tt.ptr<f16>, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>> -> <64x128xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>, #ttg.shared_memory, mutable>
        nvws.producer_commit %2, %68 {async_task_id = array<i32: 0>} : tensor<2x!nvws.token>, i32
        nvws.producer_commit %3, %68 {async_task_id = array<i32: 0>} : tensor<2x!nvws.token>, i32
        %72 = tt.broadcast %30 {async_task_id = array<i32: 0>} : tensor<1x64xi32, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>> -> tensor<64x64xi32, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>
        %73 = tt.addptr %22, %72 {async_task_id = array<i32: 0>} : tensor<64x64x!tt.ptr<f16>, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>, tensor<64x64xi32, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>
        %c2_i32_6 = arith.constant {async_task_id = array<i32: 0>} 2 : i32
        %74 = arith.extsi %c2_i32_6 {async_task_id = array<i32: 0>} : i32 to i64
        %75 = arith.divui %arg5, %74 {async_task_id = array<i32: 0>} : i64
        %76 = arith.muli %75, %74 {async_task_id = array<i32: 0>} : i64
        %77 = arith.subi %arg5, %76 {async_task_id = array<i32: 0>} : i64
        %78 = arith.trunci %77 {async_task_id = array<i32: 0>} : i64 to i32
        %c1_i64_7 = arith.constant {async_task_id = array<i32: 0>} 1 : i64
        %79 = arith.andi %75, %c1_i64_7 {async_task_id = array<i32: 0>} : i64
        %80 = arith.trunci %79 {async_task_id = array<i32: 0>} : i64 to i1
        %81 = ttg.memdesc_index %5[%78] {async_task_id = array<i32: 0>} : !ttg.memdesc<2x64x64xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>, #ttg.shared_memory, mutable> -> !ttg.memdesc<64x64xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>, #ttg.shared_memory, mutable>
        %c2_i32_8 = arith.constant {async_task_id = array<i32: 0>} 2 : i32
        %82 = arith.extsi %c2_i32_8 {async_task_id = array<i32: 0>} : i32 to i64
        %83 = arith.divui %arg5, %82 {async_task_id = array<i32: 0>} : i64
        %84 = arith.muli %83, %82 {async_task_id = array<i32: 0>} : i64
        %85 = arith.subi %arg5, %84 {async_task_id = array<i32: 0>} : i64
        %86 = arith.trunci %85 {async_task_id = array<i32: 0>} : i64 to i32
        %c1_i64_9 = arith.constant {async_task_id = array<i32: 0>} 1 : i64
        %87 = arith.andi %83, %c1_i64_9 {async_task_id = array<i32: 0>} : i64
        %88 = arith.trunci %87 {async_task_id = array<i32: 0>} : i64 to i1
        nvws.producer_acquire %1, %86, %88 {async_task_id = array<i32: 0>} : tensor<2x!nvws.token>, i32, i1
        %89 = ttg.async_copy_global_to_local %73, %81 {async_task_id = array<i32: 0>} : tensor<64x64x!tt.ptr<f16>, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>> -> <64x64xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>, #ttg.shared_memory, mutable>
        nvws.producer_commit %1, %86 {async_task_id = array<i32: 0>} : tensor<2x!nvws.token>, i32
        %c1_i64_10 = arith.constant {async_task_id = array<i32: 0>} 1 : i64
        %90 = arith.addi %arg5, %c1_i64_10 {async_task_id = array<i32: 0>} : i64
        scf.yield {async_task_id = array<i32: 0>} %90 : i64
      } {async_task_id = array<i32: 0>}
      ttg.warp_yield
    }
    partition0(%arg4: !ttg.memdesc<2x64x64xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>, #ttg.shared_memory, mutable>, %arg5: tensor<2x!nvws.token>, %arg6: !ttg.memdesc<2x64x128xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>, #ttg.shared_memory, mutable>, %arg7: tensor<2x!nvws.token>, %arg8: i32, %arg9: !tt.ptr<f16>, %arg10: !ttg.memdesc<2x64x64xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>, #ttg.shared_memory, mutable>, %arg11: tensor<2x!nvws.token>, %arg12: tensor<2x!nvws.token>) num_warps(4) {
      %cst = arith.constant {async_task_id = array<i32: 1>} dense<128> : tensor<64x1xi32, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>
      %c0_i32 = arith.constant {async_task_id = array<i32: 1>} 0 : i32
      %c64_i32 = arith.constant {async_task_id = array<i32: 1>} 64 : i32
      %cst_0 = arith.constant {async_task_id = array<i32: 1>} dense<0.000000e+00> : tensor<64x128xf32, #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>>
      %c0_i64 = arith.constant {async_task_id = array<i32: 1>} 0 : i64
      %7:2 = scf.for %arg13 = %c0_i32 to %arg8 step %c64_i32 iter_args(%arg14 = %cst_0, %arg15 = %c0_i64) -> (tensor<64x128xf32, #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>>, i64)  : i32 {
        %c2_i32 = arith.constant {async_task_id = array<i32: 1>} 2 : i32
        %20 = arith.extsi %c2_i32 {async_task_id = array<i32: 1>} : i32 to i64
        %21 = arith.divui %arg15, %20 {async_task_id = array<i32: 1>} : i64
        %22 = arith.muli %21, %20 {async_task_id = array<i32: 1>} : i64
        %23 = arith.subi %arg15, %22 {async_task_id = array<i32: 1>} : i64
        %24 = arith.trunci %23 {async_task_id = array<i32: 1>} : i64 to i32
        %c1_i64 = arith.constant {async_task_id = array<i32: 1>} 1 : i64
        %25 = arith.andi %21, %c1_i64 {async_task_id = array<i32: 1>} : i64
        %26 = arith.trunci %25 {async_task_id = array<i32: 1>} : i64 to i1
        %c2_i32_1 = arith.constant {async_task_id = array<i32: 1>} 2 : i32
        %27 = arith.extsi %c2_i32_1 {async_task_id = array<i32: 1>} : i32 to i64
        %28 = arith.divui %arg15, %27 {async_task_id = array<i32: 1>} : i64
        %29 = arith.muli %28, %27 {async_task_id = array<i32: 1>} : i64
        %30 = arith.subi %arg15, %29 {async_task_id = array<i32: 1>} : i64
        %31 = arith.trunci %30 {async_task_id = array<i32: 1>} : i64 to i32
        %c1_i64_2 = arith.constant {async_task_id = array<i32: 1>} 1 : i64
        %32 = arith.andi %28, %c1_i64_2 {async_task_id = array<i32: 1>} : i64
        %33 = arith.trunci %32 {async_task_id = array<i32: 1>} : i64 to i1
        %c2_i32_3 = arith.constant {async_task_id = array<i32: 1>} 2 : i32
        %34 = arith.extsi %c2_i32_3 {async_task_id = array<i32: 1>} : i32 to i64
        %35 = arith.divui %arg15, %34 {async_task_id = array<i32: 1>} : i64
        %36 = arith.muli %35, %34 {async_task_id = array<i32: 1>} : i64
        %37 = arith.subi %arg15, %36 {async_task_id = array<i32: 1>} : i64
        %38 = arith.trunci %37 {async_task_id = array<i32: 1>} : i64 to i32
        %c1_i64_4 = arith.constant {async_task_id = array<i32: 1>} 1 : i64
        %39 = arith.andi %35, %c1_i64_4 {async_task_id = array<i32: 1>} : i64
        %40 = arith.trunci %39 {async_task_id = array<i32: 1>} : i64 to i1
        %c2_i32_5 = arith.constant {async_task_id = array<i32: 1>} 2 : i32
        %41 = arith.extsi %c2_i32_5 {async_task_id = array<i32: 1>} : i32 to i64
        %42 = arith.divui %arg15, %41 {async_task_id = array<i32: 1>} : i64
        %43 = arith.muli %42, %41 {async_task_id = array<i32: 1>} : i64
        %44 = arith.subi %arg15, %43 {async_task_id = array<i32: 1>} : i64
        %45 = arith.trunci %44 {async_task_id = array<i32: 1>} : i64 to i32
        %c1_i64_6 = arith.constant {async_task_id = array<i32: 1>} 1 : i64
        %46 = arith.andi %42, %c1_i64_6 {async_task_id = array<i32: 1>} : i64
        %47 = arith.trunci %46 {async_task_id = array<i32: 1>} : i64 to i1
        %48 = ttg.memdesc_index %arg4[%24] {async_task_id = array<i32: 1>} : !ttg.memdesc<2x64x64xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>, #ttg.shared_memory, mutable> -> !ttg.memdesc<64x64xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>, #ttg.shared_memory, mutable>
        nvws.consumer_wait %arg5, %31, %33 {async_task_id = array<i32: 1>} : tensor<2x!nvws.token>, i32, i1
        %49 = ttg.local_load %48 {async_task_id = array<i32: 1>} : !ttg.memdesc<64x64xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>, #ttg.shared_memory, mutable> -> tensor<64x64xf16, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>
        %50 = ttg.local_alloc %49 {async_task_id = array<i32: 1>} : (tensor<64x64xf16, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>) -> !ttg.memdesc<64x64xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>, #ttg.shared_memory>
        %51 = ttg.memdesc_index %arg6[%38] {async_task_id = array<i32: 1>} : !ttg.memdesc<2x64x128xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>, #ttg.shared_memory, mutable> -> !ttg.memdesc<64x128xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>, #ttg.shared_memory, mutable>
        nvws.consumer_wait %arg7, %45, %47 {async_task_id = array<i32: 1>} : tensor<2x!nvws.token>, i32, i1
        %52 = ttg.local_load %51 {async_task_id = array<i32: 1>} : !ttg.memdesc<64x128xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>, #ttg.shared_memory, mutable> -> tensor<64x128xf16, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>
        %53 = ttg.local_alloc %52 {async_task_id = array<i32: 1>} : (tensor<64x128xf16, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>) -> !ttg.memdesc<64x128xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>, #ttg.shared_memory>
        %54 = ttng.warp_group_dot %48, %51, %arg14 {async_task_id = array<i32: 1>, inputPrecision = 0 : i32} : !ttg.memdesc<64x64xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>, #ttg.shared_memory, mutable> * !ttg.memdesc<64x128xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>, #ttg.shared_memory, mutable> -> tensor<64x128xf32, #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>>
        nvws.consumer_release %arg5, %31 {async_task_id = array<i32: 1>} : tensor<2x!nvws.token>, i32
        nvws.consumer_release %arg7, %45 {async_task_id = array<i32: 1>} : tensor<2x!nvws.token>, i32
        %c1_i64_7 = arith.constant {async_task_id = array<i32: 1>} 1 : i64
        %55 = arith.addi %arg15, %c1_i64_7 {async_task_id = array<i32: 1>} : i64
        scf.yield {async_task_id = array<i32: 1>} %54, %55 : tensor<64x128xf32, #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>>, i64
      } {async_task_id = array<i32: 1>}
      %8 = tt.make_range {async_task_id = array<i32: 1>, end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>>
      %9 = tt.expand_dims %8 {async_task_id = array<i32: 1>, axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>> -> tensor<64x1xi32, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>
      %10 = arith.muli %9, %cst {async_task_id = array<i32: 1>} : tensor<64x1xi32, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>
      %11 = tt.splat %arg9 {async_task_id = array<i32: 1>} : !tt.ptr<f16> -> tensor<64x1x!tt.ptr<f16>, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>
      %12 = tt.addptr %11, %10 {async_task_id = array<i32: 1>} : tensor<64x1x!tt.ptr<f16>, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>, tensor<64x1xi32, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>
      %13 = tt.make_range {async_task_id = array<i32: 1>, end = 128 : i32, start = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 0, parent = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>>
      %14 = tt.expand_dims %13 {async_task_id = array<i32: 1>, axis = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 0, parent = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>> -> tensor<1x128xi32, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>
      %15 = tt.broadcast %12 {async_task_id = array<i32: 1>} : tensor<64x1x!tt.ptr<f16>, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>> -> tensor<64x128x!tt.ptr<f16>, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>
      %16 = tt.broadcast %14 {async_task_id = array<i32: 1>} : tensor<1x128xi32, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>> -> tensor<64x128xi32, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>
      %17 = tt.addptr %15, %16 {async_task_id = array<i32: 1>} : tensor<64x128x!tt.ptr<f16>, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>, tensor<64x128xi32, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>
      %18 = arith.truncf %7#0 {async_task_id = array<i32: 1>} : tensor<64x128xf32, #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>> to tensor<64x128xf16, #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>>
      %19 = ttg.convert_layout %18 {async_task_id = array<i32: 1>} : tensor<64x128xf16, #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>> -> tensor<64x128xf16, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>
      tt.store %17, %19 {async_task_id = array<i32: 1>} : tensor<64x128x!tt.ptr<f16>, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>
      ttg.warp_return
    }
    partition1(%arg4: !ttg.memdesc<2x64x64xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>, #ttg.shared_memory, mutable>, %arg5: tensor<2x!nvws.token>, %arg6: !ttg.memdesc<2x64x128xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>, #ttg.shared_memory, mutable>, %arg7: tensor<2x!nvws.token>, %arg8: i32, %arg9: !tt.ptr<f16>, %arg10: !ttg.memdesc<2x64x64xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>, #ttg.shared_memory, mutable>, %arg11: tensor<2x!nvws.token>, %arg12: tensor<2x!nvws.token>) num_warps(4) {
      %cst = arith.constant {async_task_id = array<i32: 2>} dense<128> : tensor<64x1xi32, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>
      %c0_i32 = arith.constant {async_task_id = array<i32: 2>} 0 : i32
      %c64_i32 = arith.constant {async_task_id = array<i32: 2>} 64 : i32
      %cst_0 = arith.constant {async_task_id = array<i32: 2>} dense<0.000000e+00> : tensor<64x128xf32, #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>>
      %c0_i64 = arith.constant {async_task_id = array<i32: 2>} 0 : i64
      %7:2 = scf.for %arg13 = %c0_i32 to %arg8 step %c64_i32 iter_args(%arg14 = %cst_0, %arg15 = %c0_i64) -> (tensor<64x128xf32, #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>>, i64)  : i32 {
        %c2_i32 = arith.constant {async_task_id = array<i32: 2>} 2 : i32
        %20 = arith.extsi %c2_i32 {async_task_id = array<i32: 2>} : i32 to i64
        %21 = arith.divui %arg15, %20 {async_task_id = array<i32: 2>} : i64
        %22 = arith.muli %21, %20 {async_task_id = array<i32: 2>} : i64
        %23 = arith.subi %arg15, %22 {async_task_id = array<i32: 2>} : i64
        %24 = arith.trunci %23 {async_task_id = array<i32: 2>} : i64 to i32
        %c1_i64 = arith.constant {async_task_id = array<i32: 2>} 1 : i64
        %25 = arith.andi %21, %c1_i64 {async_task_id = array<i32: 2>} : i64
        %26 = arith.trunci %25 {async_task_id = array<i32: 2>} : i64 to i1
        %c2_i32_1 = arith.constant {async_task_id = array<i32: 2>} 2 : i32
        %27 = arith.extsi %c2_i32_1 {async_task_id = array<i32: 2>} : i32 to i64
        %28 = arith.divui %arg15, %27 {async_task_id = array<i32: 2>} : i64
        %29 = arith.muli %28, %27 {async_task_id = array<i32: 2>} : i64
        %30 = arith.subi %arg15, %29 {async_task_id = array<i32: 2>} : i64
        %31 = arith.trunci %30 {async_task_id = array<i32: 2>} : i64 to i32
        %c1_i64_2 = arith.constant {async_task_id = array<i32: 2>} 1 : i64
        %32 = arith.andi %28, %c1_i64_2 {async_task_id = array<i32: 2>} : i64
        %33 = arith.trunci %32 {async_task_id = array<i32: 2>} : i64 to i1
        %c2_i32_3 = arith.constant {async_task_id = array<i32: 2>} 2 : i32
        %34 = arith.extsi %c2_i32_3 {async_task_id = array<i32: 2>} : i32 to i64
        %35 = arith.divui %arg15, %34 {async_task_id = array<i32: 2>} : i64
        %36 = arith.muli %35, %34 {async_task_id = array<i32: 2>} : i64
        %37 = arith.subi %arg15, %36 {async_task_id = array<i32: 2>} : i64
        %38 = arith.trunci %37 {async_task_id = array<i32: 2>} : i64 to i32
        %c1_i64_4 = arith.constant {async_task_id = array<i32: 2>} 1 : i64
        %39 = arith.andi %35, %c1_i64_4 {async_task_id = array<i32: 2>} : i64
        %40 = arith.trunci %39 {async_task_id = array<i32: 2>} : i64 to i1
        %c2_i32_5 = arith.constant {async_task_id = array<i32: 2>} 2 : i32
        %41 = arith.extsi %c2_i32_5 {async_task_id = array<i32: 2>} : i32 to i64
        %42 = arith.divui %arg15, %41 {async_task_id = array<i32: 2>} : i64
        %43 = arith.muli %42, %41 {async_task_id = array<i32: 2>} : i64
        %44 = arith.subi %arg15, %43 {async_task_id = array<i32: 2>} : i64
        %45 = arith.trunci %44 {async_task_id = array<i32: 2>} : i64 to i32
        %c1_i64_6 = arith.constant {async_task_id = array<i32: 2>} 1 : i64
        %46 = arith.andi %42, %c1_i64_6 {async_task_id = array<i32: 2>} : i64
        %47 = arith.trunci %46 {async_task_id = array<i32: 2>} : i64 to i1
        %48 = ttg.memdesc_index %arg10[%38] {async_task_id = array<i32: 2>} : !ttg.memdesc<2x64x64xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>, #ttg.shared_memory, mutable> -> !ttg.memdesc<64x64xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>, #ttg.shared_memory, mutable>
        nvws.consumer_wait %arg11, %45, %47 {async_task_id = array<i32: 2>} : tensor<2x!nvws.token>, i32, i1
        %49 = ttg.local_load %48 {async_task_id = array<i32: 2>} : !ttg.memdesc<64x64xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>, #ttg.shared_memory, mutable> -> tensor<64x64xf16, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>
        %50 = ttg.local_alloc %49 {async_task_id = array<i32: 2>} : (tensor<64x64xf16, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>) -> !ttg.memdesc<64x64xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>, #ttg.shared_memory>
        %51 = ttg.memdesc_index %arg6[%24] {async_task_id = array<i32: 2>} : !ttg.memdesc<2x64x128xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>, #ttg.shared_memory, mutable> -> !ttg.memdesc<64x128xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>, #ttg.shared_memory, mutable>
        nvws.consumer_wait %arg12, %31, %33 {async_task_id = array<i32: 2>} : tensor<2x!nvws.token>, i32, i1
        %52 = ttg.local_load %51 {async_task_id = array<i32: 2>} : !ttg.memdesc<64x128xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>, #ttg.shared_memory, mutable> -> tensor<64x128xf16, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>
        %53 = ttg.local_alloc %52 {async_task_id = array<i32: 2>} : (tensor<64x128xf16, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>) -> !ttg.memdesc<64x128xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>, #ttg.shared_memory>
        %54 = ttng.warp_group_dot %48, %51, %arg14 {async_task_id = array<i32: 2>, inputPrecision = 0 : i32} : !ttg.memdesc<64x64xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>, #ttg.shared_memory, mutable> * !ttg.memdesc<64x128xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>, #ttg.shared_memory, mutable> -> tensor<64x128xf32, #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>>
        nvws.consumer_release %arg12, %31 {async_task_id = array<i32: 2>} : tensor<2x!nvws.token>, i32
        nvws.consumer_release %arg11, %45 {async_task_id = array<i32: 2>} : tensor<2x!nvws.token>, i32
        %c1_i64_7 = arith.constant {async_task_id = array<i32: 2>} 1 : i64
        %55 = arith.addi %arg15, %c1_i64_7 {async_task_id = array<i32: 2>} : i64
        scf.yield {async_task_id = array<i32: 2>} %54, %55 : tensor<64x128xf32, #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>>, i64
      } {async_task_id = array<i32: 2>}
      %8 = tt.make_range {async_task_id = array<i32: 2>, end = 128 : i32, start = 64 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>>
      %9 = tt.expand_dims %8 {async_task_id = array<i32: 2>, axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>> -> tensor<64x1xi32, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>
      %10 = arith.muli %9, %cst {async_task_id = array<i32: 2>} : tensor<64x1xi32, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>
      %11 = tt.splat %arg9 {async_task_id = array<i32: 2>} : !tt.ptr<f16> -> tensor<64x1x!tt.ptr<f16>, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>
      %12 = tt.addptr %11, %10 {async_task_id = array<i32: 2>} : tensor<64x1x!tt.ptr<f16>, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>, tensor<64x1xi32, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>
      %13 = tt.make_range {async_task_id = array<i32: 2>, end = 128 : i32, start = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 0, parent = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>>
      %14 = tt.expand_dims %13 {async_task_id = array<i32: 2>, axis = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 0, parent = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>> -> tensor<1x128xi32, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>
      %15 = tt.broadcast %12 {async_task_id = array<i32: 2>} : tensor<64x1x!tt.ptr<f16>, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>> -> tensor<64x128x!tt.ptr<f16>, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>
      %16 = tt.broadcast %14 {async_task_id = array<i32: 2>} : tensor<1x128xi32, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>> -> tensor<64x128xi32, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>
      %17 = tt.addptr %15, %16 {async_task_id = array<i32: 2>} : tensor<64x128x!tt.ptr<f16>, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>, tensor<64x128xi32, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>
      %18 = arith.truncf %7#0 {async_task_id = array<i32: 2>} : tensor<64x128xf32, #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>> to tensor<64x128xf16, #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>>
      %19 = ttg.convert_layout %18 {async_task_id = array<i32: 2>} : tensor<64x128xf16, #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>> -> tensor<64x128xf16, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>
      tt.store %17, %19 {async_task_id = array<i32: 2>} : tensor<64x128x!tt.ptr<f16>, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>
      ttg.warp_return
    } : (!ttg.memdesc<2x64x64xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>, #ttg.shared_memory, mutable>, tensor<2x!nvws.token>, !ttg.memdesc<2x64x128xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>, #ttg.shared_memory, mutable>, tensor<2x!nvws.token>, i32, !tt.ptr<f16>, !ttg.memdesc<2x64x64xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>, #ttg.shared_memory, mutable>, tensor<2x!nvws.token>, tensor<2x!nvws.token>) -> ()
    tt.return
  }
}


python3: /project/third_party/nvidia/hopper/lib/Transforms/WarpSpecialization/WSLowerToken.cpp:73: void mlir::processProducerCommitOp(OpBuilder &, ttnvws::ProducerCommitOp, Value, ttnvws::TokenLoadType, unsigned int): Assertion `false' failed.
module {
  tt.func public @ws_kernel(%arg0: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg3: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<128x128xf32>
    %c64_i32 = arith.constant 64 : i32
    %c0_i32 = arith.constant 0 : i32
    %cst_0 = arith.constant dense<128> : tensor<128x1xi32>
    %cst_1 = arith.constant dense<128> : tensor<64x1xi32>
    %0 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
    %1 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %2 = scf.for %arg4 = %c0_i32 to %arg3 step %c64_i32 iter_args(%arg5 = %cst) -> (tensor<128x128xf32>)  : i32 {
      %12 = tt.expand_dims %0 {axis = 1 : i32} : tensor<128xi32> -> tensor<128x1xi32>
      %13 = tt.splat %arg3 : i32 -> tensor<128x1xi32>
      %14 = arith.muli %12, %13 : tensor<128x1xi32>
      %15 = tt.splat %arg0 : !tt.ptr<f16> -> tensor<128x1x!tt.ptr<f16>>
      %16 = tt.addptr %15, %14 : tensor<128x1x!tt.ptr<f16>>, tensor<128x1xi32>
      %17 = tt.splat %arg4 : i32 -> tensor<64xi32>
      %18 = arith.addi %17, %1 : tensor<64xi32>
      %19 = tt.expand_dims %18 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
      %20 = tt.broadcast %16 : tensor<128x1x!tt.ptr<f16>> -> tensor<128x64x!tt.ptr<f16>>
      %21 = tt.broadcast %19 : tensor<1x64xi32> -> tensor<128x64xi32>
      %22 = tt.addptr %20, %21 : tensor<128x64x!tt.ptr<f16>>, tensor<128x64xi32>
      %23 = tt.load %22 : tensor<128x64x!tt.ptr<f16>>
      %24 = tt.expand_dims %18 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
      %25 = arith.muli %24, %cst_1 : tensor<64x1xi32>
      %26 = tt.splat %arg1 : !tt.ptr<f16> -> tensor<64x1x!tt.ptr<f16>>
      %27 = tt.addptr %26, %25 : tensor<64x1x!tt.ptr<f16>>, tensor<64x1xi32>
      %28 = tt.expand_dims %0 {axis = 0 : i32} : tensor<128xi32> -> tensor<1x128xi32>
      %29 = tt.broadcast %27 : tensor<64x1x!tt.ptr<f16>> -> tensor<64x128x!tt.ptr<f16>>
      %30 = tt.broadcast %28 : tensor<1x128xi32> -> tensor<64x128xi32>
      %31 = tt.addptr %29, %30 : tensor<64x128x!tt.ptr<f16>>, tensor<64x128xi32>
      %32 = tt.load %31 : tensor<64x128x!tt.ptr<f16>>
      %33 = tt.dot %23, %32, %arg5, inputPrecision = tf32 : tensor<128x64xf16> * tensor<64x128xf16> -> tensor<128x128xf32>
      scf.yield %33 : tensor<128x128xf32>
    } {tt.num_stages = 2 : i32, tt.warp_specialize}
    %3 = tt.expand_dims %0 {axis = 1 : i32} : tensor<128xi32> -> tensor<128x1xi32>
    %4 = arith.muli %3, %cst_0 : tensor<128x1xi32>
    %5 = tt.splat %arg2 : !tt.ptr<f16> -> tensor<128x1x!tt.ptr<f16>>
    %6 = tt.addptr %5, %4 : tensor<128x1x!tt.ptr<f16>>, tensor<128x1xi32>
    %7 = tt.expand_dims %0 {axis = 0 : i32} : tensor<128xi32> -> tensor<1x128xi32>
    %8 = tt.broadcast %6 : tensor<128x1x!tt.ptr<f16>> -> tensor<128x128x!tt.ptr<f16>>
    %9 = tt.broadcast %7 : tensor<1x128xi32> -> tensor<128x128xi32>
    %10 = tt.addptr %8, %9 : tensor<128x128x!tt.ptr<f16>>, tensor<128x128xi32>
    %11 = arith.truncf %2 : tensor<128x128xf32> to tensor<128x128xf16>
    tt.store %10, %11 : tensor<128x128x!tt.ptr<f16>>
    tt.return
  }
}

{-#
  external_resources: {
    mlir_reproducer: {
      pipeline: "builtin.module(convert-triton-to-tritongpu{enable-source-remat=false num-ctas=1 num-warps=4 target=cuda:90 threads-per-warp=32}, tritongpu-coalesce, tritongpu-F32DotTC{emu-tf32=true}, triton-nvidia-gpu-plan-cta, tritongpu-remove-layout-conversions, tritongpu-optimize-thread-locality, tritongpu-accelerate-matmul, tritongpu-remove-layout-conversions, tritongpu-optimize-dot-operands{hoist-layout-conversion=true}, triton-nvidia-optimize-descriptor-encoding, triton-loop-aware-cse, tritongpu-fuse-nested-loops, canonicalize{  max-iterations=10 max-num-rewrites=-1 region-simplify=normal test-convergence=false top-down=true}, triton-licm, canonicalize{  max-iterations=10 max-num-rewrites=-1 region-simplify=normal test-convergence=false top-down=true}, tritongpu-combine-tensor-select-and-if, nvgpu-warp-specialization{dump-intermediate-steps=true num-stages=2}, tritongpu-assign-latencies{num-stages=2}, tritongpu-schedule-loops, tritongpu-pipeline{dump-intermediate-steps=true num-stages=2}, canonicalize{  max-iterations=10 max-num-rewrites=-1 region-simplify=normal test-convergence=false top-down=true}, triton-loop-aware-cse, tritongpu-prefetch, tritongpu-optimize-dot-operands{hoist-layout-conversion=true}, tritongpu-coalesce-async-copy, triton-nvidia-optimize-tmem-layouts, triton-nvidia-tma-lowering, tritongpu-remove-layout-conversions, triton-nvidia-interleave-tmem, tritongpu-reduce-data-duplication, tritongpu-reorder-instructions, triton-loop-aware-cse, symbol-dce, triton-nvidia-gpu-fence-insertion{compute-capability=90}, triton-nvidia-mma-lowering, sccp, cse, canonicalize{  max-iterations=10 max-num-rewrites=-1 region-simplify=normal test-convergence=false top-down=true})",
      disable_threading: true,
      verify_each: true
    }
  }
#-}
