// Collectives, communication and deprecated ops.
// RUN: stablehlo-to-tvm %s | stablehlo-to-tvm | FileCheck %s
// RUN: stablehlo-to-tvm %s --mlir-print-op-generic | stablehlo-to-tvm | FileCheck %s

// CHECK-LABEL: func @collectives
func.func @collectives(%x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: "stablehlo.all_gather"(%{{.*}}) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, replica_groups = dense<0> : tensor<1x1xi64>}>
  %0 = "stablehlo.all_gather"(%x) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, replica_groups = dense<0> : tensor<1x1xi64>}> : (tensor<4xf32>) -> tensor<4xf32>
  // CHECK: "stablehlo.all_reduce"(%{{.*}}) <{channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, replica_groups = dense<0> : tensor<1x1xi64>, use_global_device_ids}> ({
  %1 = "stablehlo.all_reduce"(%0) <{channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, replica_groups = dense<0> : tensor<1x1xi64>, use_global_device_ids}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<4xf32>) -> tensor<4xf32>
  // CHECK: "stablehlo.all_to_all"(%{{.*}}) <{concat_dimension = 0 : i64, replica_groups = dense<0> : tensor<1x1xi64>, split_count = 1 : i64, split_dimension = 0 : i64}>
  %2 = "stablehlo.all_to_all"(%1) <{concat_dimension = 0 : i64, replica_groups = dense<0> : tensor<1x1xi64>, split_count = 1 : i64, split_dimension = 0 : i64}> : (tensor<4xf32>) -> tensor<4xf32>
  // CHECK: "stablehlo.collective_permute"(%{{.*}}) <{source_target_pairs = dense<0> : tensor<1x2xi64>}>
  %3 = "stablehlo.collective_permute"(%2) <{source_target_pairs = dense<0> : tensor<1x2xi64>}> : (tensor<4xf32>) -> tensor<4xf32>
  // CHECK: "stablehlo.collective_broadcast"(%{{.*}}) <{replica_groups = dense<0> : tensor<1x1xi64>}>
  %4 = "stablehlo.collective_broadcast"(%3) <{replica_groups = dense<0> : tensor<1x1xi64>}> : (tensor<4xf32>) -> tensor<4xf32>
  // CHECK: "stablehlo.reduce_scatter"(%{{.*}}) <{replica_groups = dense<0> : tensor<1x1xi64>, scatter_dimension = 0 : i64}> ({
  %5 = "stablehlo.reduce_scatter"(%4) <{replica_groups = dense<0> : tensor<1x1xi64>, scatter_dimension = 0 : i64}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return %5 : tensor<4xf32>
}

// CHECK-LABEL: func @communication
func.func @communication(%x: tensor<4xf32>, %t: !stablehlo.token) -> !stablehlo.token {
  // CHECK: "stablehlo.send"(%{{.*}}, %{{.*}}) <{channel_handle = #stablehlo.channel_handle<handle = 5, type = 2>, is_host_transfer = true}>
  %0 = "stablehlo.send"(%x, %t) <{channel_handle = #stablehlo.channel_handle<handle = 5, type = 2>, is_host_transfer = true}> : (tensor<4xf32>, !stablehlo.token) -> !stablehlo.token
  // CHECK: "stablehlo.recv"(%{{.*}}) <{channel_handle = #stablehlo.channel_handle<handle = 5, type = 3>, is_host_transfer = true}>
  %1:2 = "stablehlo.recv"(%0) <{channel_handle = #stablehlo.channel_handle<handle = 5, type = 3>, is_host_transfer = true}> : (!stablehlo.token) -> (tensor<4xf32>, !stablehlo.token)
  // CHECK: "stablehlo.outfeed"(%{{.*}}, %{{.*}}) <{outfeed_config = ""}>
  %2 = "stablehlo.outfeed"(%1#0, %1#1) <{outfeed_config = ""}> : (tensor<4xf32>, !stablehlo.token) -> !stablehlo.token
  // CHECK: "stablehlo.infeed"(%{{.*}}) <{infeed_config = ""}>
  %3:2 = "stablehlo.infeed"(%2) <{infeed_config = ""}> : (!stablehlo.token) -> (tensor<4xf32>, !stablehlo.token)
  return %3#1 : !stablehlo.token
}

// CHECK-LABEL: func @deprecated
func.func @deprecated(%a: tensor<2x3xf32>, %b: tensor<3xf32>, %i: tensor<2xi32>) -> tensor<2xf32> {
  // CHECK: stablehlo.dot %{{.*}}, %{{.*}}, precision = [DEFAULT, DEFAULT] : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2xf32>
  %0 = stablehlo.dot %a, %b, precision = [DEFAULT, DEFAULT] : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2xf32>
  // CHECK: stablehlo.dot %{{.*}}, %{{.*}} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2xf32>
  %1 = stablehlo.dot %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2xf32>
  // CHECK: stablehlo.broadcast %{{.*}}, sizes = [4] : (tensor<3xf32>) -> tensor<4x3xf32>
  %2 = stablehlo.broadcast %b, sizes = [4] : (tensor<3xf32>) -> tensor<4x3xf32>
  // CHECK: stablehlo.einsum %{{.*}}, %{{.*}}, config = "ij,j->i" : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2xf32>
  %3 = stablehlo.einsum %a, %b, config = "ij,j->i" : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2xf32>
  // CHECK: stablehlo.unary_einsum %{{.*}}, config = "ij->i" : (tensor<2x3xf32>) -> tensor<2xf32>
  %4 = stablehlo.unary_einsum %a, config = "ij->i" : (tensor<2x3xf32>) -> tensor<2xf32>
  // CHECK: "stablehlo.torch_index_select"(%{{.*}}, %{{.*}}) <{batch_dims = 0 : i64, dim = 0 : i64}>
  %5 = "stablehlo.torch_index_select"(%b, %i) <{batch_dims = 0 : i64, dim = 0 : i64}> : (tensor<3xf32>, tensor<2xi32>) -> tensor<2xf32>
  return %5 : tensor<2xf32>
}
