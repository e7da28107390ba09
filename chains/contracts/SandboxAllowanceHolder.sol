// SPDX-License-Identifier: MIT OR Apache-2.0
pragma solidity 0.8.28;

/// The Sandbox's stand-in for 0x Protocol's AllowanceHolder (0xProject/0x-settler), placed on the local chains at the
/// address the real service pins for each chain, for production-shaped orders. Written for the Sandbox from the
/// published interface, not copied: `exec` lets `operator` pull at most `amount` of `token` from the caller, through
/// `transferFrom`, during this one call to `target` (whose calldata gets the caller appended, as ERC-2771 does); the
/// allowance ends with the call.
interface IERC20Pull {
    function transferFrom(address from, address to, uint256 amount) external returns (bool);
}

contract SandboxAllowanceHolder {
    address private _operator;
    address private _owner;
    address private _token;
    uint256 private _left;

    function exec(address operator, address token, uint256 amount, address target, bytes calldata data)
        external
        payable
        returns (bytes memory result)
    {
        require(_owner == address(0), "AllowanceHolder: reentrant exec");
        require(target.code.length > 0, "AllowanceHolder: target is no contract");
        _operator = operator;
        _owner = msg.sender;
        _token = token;
        _left = amount;
        (bool ok, bytes memory out) = target.call{value: msg.value}(abi.encodePacked(data, msg.sender));
        delete _operator;
        delete _owner;
        delete _token;
        delete _left;
        if (!ok) {
            assembly {
                revert(add(out, 32), mload(out))
            }
        }
        return out;
    }

    function transferFrom(address token, address owner, address recipient, uint256 amount) external returns (bool) {
        require(msg.sender == _operator && owner == _owner && token == _token, "AllowanceHolder: not allowed");
        require(amount <= _left, "AllowanceHolder: allowance exceeded");
        _left -= amount;
        require(IERC20Pull(token).transferFrom(owner, recipient, amount), "AllowanceHolder: transfer failed");
        return true;
    }
}

/// A stranger's contract, for the Sandbox's production-shaped tampers: handed control inside a call, it pulls what
/// an allowance lets it.
contract SandboxThief {
    function steal(address holder, address token, address owner, uint256 amount) external {
        SandboxAllowanceHolder(holder).transferFrom(token, owner, address(this), amount);
    }
}
