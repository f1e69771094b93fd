// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {PackedUserOperation} from "@account-abstraction/contracts/interfaces/PackedUserOperation.sol";

/// @notice The devnet's stand-in for ZeroDev's ECDSA validator, the root validator of every Kernel v3.1 wallet
/// (canonical at 0x845ADb2C711129d4f3966735eD98a9F09fC4cE57 on Base; permissionless' KERNEL_VERSION_TO_ADDRESSES_MAP
/// "0.3.1".ECDSA_VALIDATOR). No package ships its bytecode, so this imitates the documented behaviour of
/// zerodevapp/kernel src/validator/ECDSAValidator.sol (v3.1, commit 03f7f5c), written here from its interface:
/// - one owner per account, keyed by the calling account, in a public mapping at storage slot 0;
/// - onInstall takes the owner as the first 20 bytes of its data, emitting OwnerRegistered; onUninstall clears it
///   (NotInitialized when there was none);
/// - validateUserOp accepts a signature by the owner over the userOpHash itself or over its EIP-191 ("\x19Ethereum
///   Signed Message:\n32") form, answering 0 (success) or 1 (failure); isValidSignatureWithSender likewise answers
///   the ERC-1271 magic value or 0xffffffff;
/// - a signature that recovers to no address reverts, as Solady's ECDSA.recover does (65-byte r,s,v and 64-byte
///   EIP-2098 compact signatures are recovered; the upper-half `s` is not refused, as Solady does not);
/// - as a hook (module type 4), preCheck requires the caller to be the owner.
/// On Base the real module is used; the devnet places this one at the same address.
contract DevnetEcdsaValidator {
    struct ECDSAValidatorStorage {
        address owner;
    }

    uint256 internal constant MODULE_TYPE_VALIDATOR = 1;
    uint256 internal constant MODULE_TYPE_HOOK = 4;
    uint256 internal constant SIG_VALIDATION_SUCCESS_UINT = 0;
    uint256 internal constant SIG_VALIDATION_FAILED_UINT = 1;
    bytes4 internal constant ERC1271_MAGICVALUE = 0x1626ba7e;
    bytes4 internal constant ERC1271_INVALID = 0xffffffff;

    event OwnerRegistered(address indexed kernel, address indexed owner);

    error NotInitialized(address smartAccount);
    error InvalidSignature();

    mapping(address => ECDSAValidatorStorage) public ecdsaValidatorStorage;

    function onInstall(bytes calldata data) external payable {
        address owner = address(bytes20(data[0:20]));
        ecdsaValidatorStorage[msg.sender].owner = owner;
        emit OwnerRegistered(msg.sender, owner);
    }

    function onUninstall(bytes calldata) external payable {
        if (!_isInitialized(msg.sender)) revert NotInitialized(msg.sender);
        delete ecdsaValidatorStorage[msg.sender];
    }

    function isModuleType(uint256 typeId) external pure returns (bool) {
        return typeId == MODULE_TYPE_VALIDATOR || typeId == MODULE_TYPE_HOOK;
    }

    function isInitialized(address smartAccount) external view returns (bool) {
        return _isInitialized(smartAccount);
    }

    function validateUserOp(PackedUserOperation calldata userOp, bytes32 userOpHash) external payable returns (uint256) {
        return _signedByOwner(msg.sender, userOpHash, userOp.signature) ? SIG_VALIDATION_SUCCESS_UINT : SIG_VALIDATION_FAILED_UINT;
    }

    function isValidSignatureWithSender(address, bytes32 hash, bytes calldata signature) external view returns (bytes4) {
        return _signedByOwner(msg.sender, hash, signature) ? ERC1271_MAGICVALUE : ERC1271_INVALID;
    }

    function preCheck(address msgSender, uint256, bytes calldata) external payable returns (bytes memory) {
        require(msgSender == ecdsaValidatorStorage[msg.sender].owner, "ECDSAValidator: sender is not owner");
        return hex"";
    }

    function postCheck(bytes calldata) external payable {}

    function _isInitialized(address smartAccount) internal view returns (bool) {
        return ecdsaValidatorStorage[smartAccount].owner != address(0);
    }

    /// The raw hash first, then its EIP-191 form: the order the real validator tries them in.
    function _signedByOwner(address account, bytes32 hash, bytes calldata signature) internal view returns (bool) {
        address owner = ecdsaValidatorStorage[account].owner;
        if (owner == _recover(hash, signature)) return true;
        bytes32 ethHash = keccak256(abi.encodePacked("\x19Ethereum Signed Message:\n32", hash));
        return owner == _recover(ethHash, signature);
    }

    function _recover(bytes32 hash, bytes calldata signature) internal pure returns (address signer) {
        bytes32 r;
        bytes32 s;
        uint8 v;
        if (signature.length == 65) {
            r = bytes32(signature[0:32]);
            s = bytes32(signature[32:64]);
            v = uint8(signature[64]);
        } else if (signature.length == 64) {
            // EIP-2098: the top bit of the second word is v - 27.
            r = bytes32(signature[0:32]);
            bytes32 vs = bytes32(signature[32:64]);
            s = vs & bytes32(0x7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff);
            v = uint8(uint256(vs >> 255)) + 27;
        } else {
            revert InvalidSignature();
        }
        signer = ecrecover(hash, v, r, s);
        if (signer == address(0)) revert InvalidSignature();
    }
}
