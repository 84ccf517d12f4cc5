# kernel_args NAME: the ewc-run arguments of the kernel the device scripts
# call NAME: kernels/NAME.ew, or for the LeakyReLU of each dtype the generic
# kernels/leaky_relu.ew with its type (leaky_relu is f32, leaky_relu_f16 and
# leaky_relu_bf16 the others, as the hand-written files were named). Sourced.
kernel_args() {
  case $1 in
    leaky_relu) echo "kernels/leaky_relu.ew --type T=f32" ;;
    leaky_relu_f16) echo "kernels/leaky_relu.ew --type T=f16" ;;
    leaky_relu_bf16) echo "kernels/leaky_relu.ew --type T=bf16" ;;
    *) echo "kernels/$1.ew" ;;
  esac
}
