// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

interface IVestingERC20 {
    function transfer(address to, uint256 amount) external returns (bool);
    function transferFrom(address from, address to, uint256 amount) external returns (bool);
    function balanceOf(address owner) external view returns (uint256);
}

/// @title PrebuyVesting
/// @notice Locked and vesting token positions in each buyer's name: what a dev buy or an OTC settlement allocates to
///         a project with lock or vesting. Nothing is releasable before the lockup ends; then the position vests
///         linearly over the vesting period (rounded down), all of it at its end; with no vesting period, all of it at
///         the lockup end. The same rule as src/domain/launch-methods/vesting-schedule.ts, which the service shows.
/// @dev Permissionless and ownerless: whoever locks pays the tokens in; only a position's beneficiary (the buyer's
///      smart wallet, through a normal wallet operation) releases it, and only to itself. No admin can move anything.
contract PrebuyVesting {
    struct Position {
        address beneficiary;
        address token;
        uint256 total;
        uint256 released;
        uint64 start;
        uint64 lockupEnd;
        uint64 vestingSeconds;
    }

    mapping(uint256 id => Position) public positions;
    uint256 public nextId;

    event PositionCreated(
        uint256 indexed id, address indexed beneficiary, address indexed token, uint256 total, uint64 start, uint64 lockupEnd, uint64 vestingSeconds
    );
    event Released(uint256 indexed id, address indexed beneficiary, uint256 amount);

    error InvalidSchedule();
    error ZeroBeneficiary();
    error LengthMismatch();
    error NotBeneficiary();
    error NothingToRelease();
    error UnknownPosition(uint256 id);
    error TransferFailed();

    /// @notice Locks `amounts[i]` of `token` for `beneficiaries[i]`, from now, pulled from the caller in one transfer.
    /// @return firstId the id of the first position; the others follow in order.
    function lock(address token, address[] calldata beneficiaries, uint256[] calldata amounts, uint64 lockupEnd, uint64 vestingSeconds)
        external
        returns (uint256 firstId)
    {
        if (beneficiaries.length != amounts.length) revert LengthMismatch();
        uint64 start = uint64(block.timestamp);
        if (lockupEnd < start) revert InvalidSchedule();
        uint256 sum;
        for (uint256 i = 0; i < amounts.length; i++) {
            sum += amounts[i];
        }
        // Exact amounts only: a token that takes a fee on transfer would leave positions the contract cannot pay.
        uint256 before = IVestingERC20(token).balanceOf(address(this));
        if (!IVestingERC20(token).transferFrom(msg.sender, address(this), sum)) revert TransferFailed();
        if (IVestingERC20(token).balanceOf(address(this)) - before != sum) revert TransferFailed();
        firstId = nextId;
        for (uint256 i = 0; i < beneficiaries.length; i++) {
            if (beneficiaries[i] == address(0)) revert ZeroBeneficiary();
            uint256 id = firstId + i;
            positions[id] = Position(beneficiaries[i], token, amounts[i], 0, start, lockupEnd, vestingSeconds);
            emit PositionCreated(id, beneficiaries[i], token, amounts[i], start, lockupEnd, vestingSeconds);
        }
        nextId = firstId + beneficiaries.length;
    }

    /// @notice Tokens of position `id` vested at unix time `at`.
    function vestedAt(uint256 id, uint256 at) public view returns (uint256) {
        Position storage p = positions[id];
        if (p.beneficiary == address(0)) revert UnknownPosition(id);
        if (at < p.lockupEnd) return 0;
        if (p.vestingSeconds == 0 || at >= uint256(p.lockupEnd) + p.vestingSeconds) return p.total;
        return p.total * (at - p.lockupEnd) / p.vestingSeconds;
    }

    /// @notice What the beneficiary may release now.
    function releasable(uint256 id) public view returns (uint256) {
        return vestedAt(id, block.timestamp) - positions[id].released;
    }

    /// @notice Sends the beneficiary (the caller) everything vested and not yet released.
    function release(uint256 id) external returns (uint256 amount) {
        Position storage p = positions[id];
        if (p.beneficiary == address(0)) revert UnknownPosition(id);
        if (msg.sender != p.beneficiary) revert NotBeneficiary();
        amount = releasable(id);
        if (amount == 0) revert NothingToRelease();
        p.released += amount;
        if (!IVestingERC20(p.token).transfer(p.beneficiary, amount)) revert TransferFailed();
        emit Released(id, p.beneficiary, amount);
    }
}
