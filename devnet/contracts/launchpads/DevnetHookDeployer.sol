// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

/// @notice CREATE2 deployer for hooks. A v4 hook's address must carry its permission flags in its low 14 bits, so the
/// devnet helper mines a salt off-chain against this contract's address and deploys through it.
contract DevnetHookDeployer {
    event Deployed(address indexed addr, bytes32 salt);

    error DeployFailed();

    function deploy(bytes32 salt, bytes calldata initCode) external returns (address addr) {
        bytes memory code = initCode;
        assembly ("memory-safe") {
            addr := create2(0, add(code, 0x20), mload(code), salt)
        }
        if (addr == address(0)) revert DeployFailed();
        emit Deployed(addr, salt);
    }
}
