// Host facts worded once for every report, so that the reports never
// describe the same host in two ways (issue #20: "no /dev/kvm" in one
// report, "/dev/kvm opens" in another).

/** Why no KVM guest (Firecracker, runsc --platform=kvm) runs on this host. */
export const KVM_UNAVAILABLE = 'this host cannot run KVM guests (/dev/kvm exists, but the CPU offers no vmx or svm)';
