// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

interface IDevnetKernelFactory {
    function createAccount(bytes calldata data, bytes32 salt) external payable returns (address);
}

/// @notice The devnet's stand-in for ZeroDev's meta-factory (FactoryStaker, canonical at
/// 0xd703aaE79538628d27099B8c4f621bE4CCd142d5 on Base; permissionless' KERNEL_VERSION_TO_ADDRESSES_MAP
/// "0.3.1".META_FACTORY_ADDRESS), through which permissionless deploys every Kernel v3.1 account by default. It imitates
/// zerodevapp/kernel src/factory/FactoryStaker.sol (commit 03f7f5c): `approved` is a public mapping at storage slot 0
/// (Solady's Ownable keeps its owner in a hashed slot, so the mapping is the first declared variable there too), and
/// deployWithFactory forwards to an approved KernelFactory's createAccount, refusing others with NotApprovedFactory.
/// The account's address is the KernelFactory's CREATE2 address, whoever calls it. The real contract's owner-only
/// approveFactory and EntryPoint staking are left out: the devnet sets the KernelFactory's approval directly in
/// storage (devnet/chain/place-kernel.ts), as the owner's approveFactory left it on Base.
contract DevnetKernelFactoryStaker {
    mapping(address => bool) public approved;

    error NotApprovedFactory();

    function deployWithFactory(address factory, bytes calldata createData, bytes32 salt) external payable returns (address) {
        if (!approved[factory]) revert NotApprovedFactory();
        // Like the real one, any ETH sent stays here (it is not forwarded to the factory).
        return IDevnetKernelFactory(factory).createAccount(createData, salt);
    }
}
