// The baseline for activation time: an extension that does nothing.
exports.activate = () => ({});
exports.deactivate = () => {};
