// SPDX-License-Identifier: MIT OR Apache-2.0
pragma solidity 0.8.28;

/// A test ERC-20 placed by the Sandbox at a catalogue token's address on its local chain (anvil_setCode: no
/// constructor runs, so `initialize` sets its facts once). Anyone may `mint`: it is worthless by design. With
/// `resetToZero`, a non-zero allowance can only be set from zero, as USDT on Ethereum requires.
contract TestToken {
    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    string public name;
    string public symbol;
    uint8 public decimals;
    bool public resetToZero;
    bool private initialized;
    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;

    function initialize(string calldata name_, string calldata symbol_, uint8 decimals_, bool resetToZero_) external {
        require(!initialized, "initialized");
        initialized = true;
        name = name_;
        symbol = symbol_;
        decimals = decimals_;
        resetToZero = resetToZero_;
    }

    function mint(address to, uint256 amount) external {
        totalSupply += amount;
        balanceOf[to] += amount;
        emit Transfer(address(0), to, amount);
    }

    function transfer(address to, uint256 amount) external returns (bool) {
        _move(msg.sender, to, amount);
        return true;
    }

    function approve(address spender, uint256 amount) external returns (bool) {
        require(!resetToZero || amount == 0 || allowance[msg.sender][spender] == 0, "reset the allowance to zero first");
        allowance[msg.sender][spender] = amount;
        emit Approval(msg.sender, spender, amount);
        return true;
    }

    function transferFrom(address from, address to, uint256 amount) external returns (bool) {
        uint256 allowed = allowance[from][msg.sender];
        require(allowed >= amount, "allowance too low");
        if (allowed != type(uint256).max) {
            allowance[from][msg.sender] = allowed - amount;
        }
        _move(from, to, amount);
        return true;
    }

    function _move(address from, address to, uint256 amount) private {
        require(balanceOf[from] >= amount, "balance too low");
        balanceOf[from] -= amount;
        balanceOf[to] += amount;
        emit Transfer(from, to, amount);
    }
}
