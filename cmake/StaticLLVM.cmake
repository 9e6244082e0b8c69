# Debian builds LLVM with LLVM_LINK_LLVM_DYLIB=ON, so every static MLIR target
# lists the shared `LLVM` target in its link interface. Swap it for the static
# LLVM component libraries so that nothing links libLLVM.so.
function(stablehlo_tvm_use_static_llvm)
  llvm_map_components_to_libnames(static_llvm_libs
    Support Demangle TargetParser BinaryFormat Remarks BitstreamReader Core)
  get_property(mlir_libs GLOBAL PROPERTY MLIR_ALL_LIBS)
  foreach(lib IN LISTS mlir_libs)
    if(NOT TARGET ${lib})
      continue()
    endif()
    get_target_property(type ${lib} TYPE)
    if(NOT type STREQUAL "STATIC_LIBRARY")
      continue()
    endif()
    get_target_property(deps ${lib} INTERFACE_LINK_LIBRARIES)
    if(deps AND "LLVM" IN_LIST deps)
      list(REMOVE_ITEM deps LLVM)
      list(APPEND deps ${static_llvm_libs})
      set_target_properties(${lib} PROPERTIES INTERFACE_LINK_LIBRARIES "${deps}")
    endif()
  endforeach()
endfunction()
