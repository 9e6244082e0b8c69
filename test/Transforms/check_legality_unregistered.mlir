// Ops of dialects nobody registered are reported like any other leftover.
// RUN: stablehlo-to-tvm %s --allow-unregistered-dialect --stablehlo-to-tvm-pipeline --verify-diagnostics

func.func @main(%x: tensor<2xi64>) -> tensor<2xi64> {
  // expected-error @+2 {{1 operation(s) could not be imported into TVM; unsupported: interpreter.run_parallel}}
  // expected-note @+1 {{unsupported operation 'interpreter.run_parallel'}}
  %0 = "interpreter.run_parallel"(%x) {programs = [[@f]]} : (tensor<2xi64>) -> tensor<2xi64>
  return %0 : tensor<2xi64>
}
