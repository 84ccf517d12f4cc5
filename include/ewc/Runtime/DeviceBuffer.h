//===- DeviceBuffer.h - GPU memory owned by one object ----------*- C++ -*-===//
//
// Part of the ewc project.
//
//===----------------------------------------------------------------------===//
//
// Device memory for kernel inputs and results, freed when its owner goes.
// A buffer must be destroyed before the CudaContext it was allocated in.
//
//===----------------------------------------------------------------------===//

#ifndef EWC_RUNTIME_DEVICEBUFFER_H
#define EWC_RUNTIME_DEVICEBUFFER_H

#include "llvm/Support/Error.h"

#include <cstddef>
#include <cstdint>

namespace ewc {
namespace cuda {
struct DriverApi;
} // namespace cuda

class CudaContext;

/// A block of device memory. A buffer of 0 bytes allocates nothing and has
/// address 0 (kernels never read it: they loop over 0 elements).
class DeviceBuffer {
public:
  /// Allocates `sizeInBytes` bytes of uninitialized device memory.
  static llvm::Expected<DeviceBuffer> allocate(CudaContext &context,
                                               size_t sizeInBytes);

  DeviceBuffer(DeviceBuffer &&other) noexcept;
  DeviceBuffer &operator=(DeviceBuffer &&other) noexcept;
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;
  ~DeviceBuffer();

  /// The device address (a CUdeviceptr): the value a kernel pointer parameter
  /// takes. Kernel parameter arrays point to a copy of it held by the caller.
  uint64_t getAddress() const { return address; }
  size_t getSizeInBytes() const { return sizeInBytes; }

  /// Copies `count` bytes from host memory to the buffer, starting `offset`
  /// bytes in; fails if they would run past the buffer's end.
  llvm::Error copyFromHost(const void *source, size_t count, size_t offset = 0);
  /// Copies `count` bytes, starting `offset` bytes into the buffer, to host
  /// memory; fails if they would run past the buffer's end.
  llvm::Error copyToHost(void *destination, size_t count,
                         size_t offset = 0) const;
  /// Sets every byte to `value`. Outputs are filled with a poison pattern
  /// before a run so that elements a kernel forgot to write are noticed.
  llvm::Error fillBytes(uint8_t value);

private:
  DeviceBuffer(const cuda::DriverApi &api, uint64_t address, size_t sizeInBytes)
      : api(&api), address(address), sizeInBytes(sizeInBytes) {}

  /// The process-wide driver table, not the context: freeing after the
  /// context is gone then fails quietly instead of touching a dead object.
  const cuda::DriverApi *api;
  uint64_t address;
  size_t sizeInBytes;
};

} // namespace ewc

#endif // EWC_RUNTIME_DEVICEBUFFER_H
