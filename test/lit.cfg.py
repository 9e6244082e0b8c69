# lit configuration for the stablehlo-to-tvm regression tests.

import os

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "STABLEHLO_TVM"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir"]
config.excludes = ["lit.cfg.py", "lit.site.cfg.py", "CMakeLists.txt", "python"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.project_obj_root, "test")

llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.add_tool_substitutions(
    [ToolSubst("stablehlo-to-tvm", unresolved="fatal")],
    [config.project_tools_dir],
)
