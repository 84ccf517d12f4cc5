//===- DeviceBuffer.cpp - GPU memory owned by one object ------------------===//
//
// Part of the ewc project.
//
//===----------------------------------------------------------------------===//
//
// Allocation, bounds-checked copies and byte fills of device memory.
//
//===----------------------------------------------------------------------===//

#include "ewc/Runtime/DeviceBuffer.h"
#include "ewc/Runtime/CudaContext.h"

#include "CudaDriver.h"

#include "llvm/Support/FormatVariadic.h"

using namespace ewc;
using namespace ewc::cuda;

llvm::Expected<DeviceBuffer> DeviceBuffer::allocate(CudaContext &context,
                                                    size_t sizeInBytes) {
  const DriverApi &api = context.api;
  // cuMemAlloc rejects 0 bytes; an empty tensor needs no memory.
  if (sizeInBytes == 0)
    return DeviceBuffer(api, 0, 0);
  CUdeviceptr address = 0;
  if (llvm::Error error =
          checkCuda(api, api.cuMemAlloc(&address, sizeInBytes), "cuMemAlloc"))
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        llvm::formatv("cannot allocate {0} bytes on the device: {1}",
                      sizeInBytes, llvm::toString(std::move(error))));
  return DeviceBuffer(api, address, sizeInBytes);
}

DeviceBuffer::DeviceBuffer(DeviceBuffer &&other) noexcept
    : api(other.api), address(other.address), sizeInBytes(other.sizeInBytes) {
  other.address = 0;
  other.sizeInBytes = 0;
}

DeviceBuffer &DeviceBuffer::operator=(DeviceBuffer &&other) noexcept {
  if (this != &other) {
    if (address)
      api->cuMemFree(address);
    api = other.api;
    address = other.address;
    sizeInBytes = other.sizeInBytes;
    other.address = 0;
    other.sizeInBytes = 0;
  }
  return *this;
}

DeviceBuffer::~DeviceBuffer() {
  // A destructor cannot report; freeing fails only when the context is
  // already gone, and its memory with it.
  if (address)
    api->cuMemFree(address);
}

/// Rejects copies that would run past the end of a buffer of `size` bytes,
/// which the driver may not catch when the bytes beyond belong to another
/// allocation.
static llvm::Error checkCount(size_t count, size_t offset, size_t size,
                              const char *what) {
  if (offset <= size && count <= size - offset)
    return llvm::Error::success();
  return llvm::createStringError(
      llvm::inconvertibleErrorCode(),
      llvm::formatv("{0} of {1} bytes at offset {2} overruns a device buffer "
                    "of {3} bytes",
                    what, count, offset, size));
}

llvm::Error DeviceBuffer::copyFromHost(const void *source, size_t count,
                                       size_t offset) {
  if (llvm::Error error =
          checkCount(count, offset, sizeInBytes, "copy to device"))
    return error;
  if (count == 0)
    return llvm::Error::success();
  return checkCuda(*api, api->cuMemcpyHtoD(address + offset, source, count),
                   "cuMemcpyHtoD");
}

llvm::Error DeviceBuffer::copyToHost(void *destination, size_t count,
                                     size_t offset) const {
  if (llvm::Error error =
          checkCount(count, offset, sizeInBytes, "copy from device"))
    return error;
  if (count == 0)
    return llvm::Error::success();
  return checkCuda(*api,
                   api->cuMemcpyDtoH(destination, address + offset, count),
                   "cuMemcpyDtoH");
}

llvm::Error DeviceBuffer::fillBytes(uint8_t value) {
  if (sizeInBytes == 0)
    return llvm::Error::success();
  return checkCuda(*api, api->cuMemsetD8(address, value, sizeInBytes),
                   "cuMemsetD8");
}
